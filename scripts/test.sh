#!/usr/bin/env bash
# `npm test`: build both packages, then vitest (unit and end to end), then the typecheck and tsd (the type tests, on
# the built declarations) side by side: each keeps one core busy, and nothing timing-bound runs beside them
# (decisions 1452, 1454). Any failure fails the whole; every step runs.
set -uo pipefail
cd "$(dirname "$0")/.."

npm run -s build || exit 1

status=0
started=$SECONDS
npx vitest run "$@" || status=1
echo "test: vitest took $((SECONDS - started)) s"

started=$SECONDS
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
npx tsc -p tsconfig.json --noEmit >"$scratch/typecheck.log" 2>&1 &
typecheck=$!
npx tsd >"$scratch/tsd.log" 2>&1 &
tsd=$!
wait "$typecheck" || { status=1; echo "test: the typecheck failed:"; }
cat "$scratch/typecheck.log"
wait "$tsd" || { status=1; echo "test: tsd failed:"; }
cat "$scratch/tsd.log"
echo "test: typecheck and tsd took $((SECONDS - started)) s"
exit "$status"
