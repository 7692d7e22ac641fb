#!/usr/bin/env bash
# `npm test`: build both packages, then vitest (unit and end to end) with the typecheck and tsd (the type tests, on
# the built declarations) beside it at the lowest CPU priority (`nice -n 19`): vitest leaves part of the two cores
# idle while its files wait on sockets, fsync and PostgreSQL, and the type checks take only that part, so no test's
# timing meets their load (decisions 1452, 1454, 1456). Any failure fails the whole; every step runs.
set -uo pipefail
cd "$(dirname "$0")/.."

npm run -s build || exit 1

status=0
started=$SECONDS
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
nice -n 19 npx tsc -p tsconfig.json --noEmit >"$scratch/typecheck.log" 2>&1 &
typecheck=$!
nice -n 19 npx tsd >"$scratch/tsd.log" 2>&1 &
tsd=$!

npx vitest run "$@" || status=1
echo "test: vitest took $((SECONDS - started)) s"

waited=$SECONDS
wait "$typecheck" || { status=1; echo "test: the typecheck failed:"; }
cat "$scratch/typecheck.log"
wait "$tsd" || { status=1; echo "test: tsd failed:"; }
cat "$scratch/tsd.log"
echo "test: the typecheck and tsd ended $((SECONDS - waited)) s after vitest"
exit "$status"
