#!/usr/bin/env bash
# `npm test`: build both packages, then vitest (unit and end to end), the typecheck and tsd (the type tests, on the
# built declarations), one after the other (decision 1452: side by side, their load made timing-bound end-to-end
# files fail in the fresh-clone run). Any failure fails the whole; every step runs.
set -uo pipefail
cd "$(dirname "$0")/.."

npm run -s build || exit 1

status=0
started=$SECONDS
npx vitest run "$@" || status=1
echo "test: vitest took $((SECONDS - started)) s"
started=$SECONDS
npx tsc -p tsconfig.json --noEmit || status=1
echo "test: typecheck took $((SECONDS - started)) s"
started=$SECONDS
npx tsd || status=1
echo "test: tsd took $((SECONDS - started)) s"
exit "$status"
