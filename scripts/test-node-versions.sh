#!/usr/bin/env bash
# Runs the end-to-end folders (on both engines) and the packaging test on each Node.js version of
# .ci/node-versions (decision 1451), after `bash scripts/node-versions.sh install` made them ready. The running
# Node (the one npm runs on) runs everything in `npm test`; this covers the others. Each version's vitest runs with
# that version's bin/ first on PATH, so the processes the tests start (the CLI, `npm`, `node`) run on it too.
#
#   bash scripts/test-node-versions.sh          # every version of .ci/node-versions, one after the other
#   bash scripts/test-node-versions.sh 24       # one version
#   bash scripts/test-node-versions.sh 22 24 -- test/files/expiry.test.ts   # only these files (vitest filters)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# What runs on every supported version: the folders that go through the real service over sockets, on SQLite and
# PostgreSQL (vitest.config.ts's `endToEnd`), and the export-map test of the built packages.
folders=(test/files test/admin test/tables test/client test/server test/testing test/packaging)

majors=()
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do majors+=("$1"); shift; done
if [ "${1:-}" = "--" ]; then shift; folders=("$@"); fi
if [ "${#majors[@]}" = 0 ]; then mapfile -t majors < <(grep -v '^\s*#' .ci/node-versions | grep -v '^\s*$'); fi

# One version after the other, one file more than there are cores (three on 2 cores): a run of the end-to-end folders waits on sockets, fsync and
# PostgreSQL far more than it computes (two workers kept 1.3 of 2 cores busy), so a third worker took Node 22's run
# from 83 to 73 s, where a fourth gained nothing; the two versions side by side with one file at a time each were
# slower than one after the other with two (decisions 1454, 1456). BOTSHELF_TEST_WORKERS sets another count.
workers="${BOTSHELF_TEST_WORKERS:-$(( $(nproc) + 1 ))}"
for major in "${majors[@]}"; do
  bin="$(bash scripts/node-versions.sh bin "$major")"
  [ -x "$bin/node" ] || { echo "test-node-versions: Node $major is not installed: run bash scripts/node-versions.sh install" >&2; exit 1; }
  echo "test-node-versions: the end-to-end folders and packaging on Node $("$bin/node" --version)"
  started=$SECONDS
  # Each file runs in both projects of vitest.config.ts; a worker keeps its modules between files (decision 1454).
  PATH="$bin:$PATH" BOTSHELF_TEST_WORKERS="$workers" "$bin/node" node_modules/vitest/vitest.mjs run "${folders[@]}"
  echo "test-node-versions: Node $major took $((SECONDS - started)) s"
done
