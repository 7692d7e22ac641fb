#!/usr/bin/env bash
# `npm test`: build both packages, then the typecheck, vitest (unit and end to end) and tsd (the type tests, on the
# built declarations) side by side (decision 1452): vitest's files spend much of their time waiting on sockets, disk
# and child processes, and the typecheck and tsd each keep one core busy for a minute. The typecheck's and tsd's
# output is printed after vitest's, each under its name; any failure fails the whole.
set -uo pipefail
cd "$(dirname "$0")/.."

npm run -s build || exit 1

logs="$(mktemp -d)"
started=$SECONDS
(npx tsc -p tsconfig.json --noEmit >"$logs/typecheck" 2>&1; echo $? >"$logs/typecheck.rc"; echo "$((SECONDS - started))" >"$logs/typecheck.s") &
(npx tsd >"$logs/tsd" 2>&1; echo $? >"$logs/tsd.rc"; echo "$((SECONDS - started))" >"$logs/tsd.s") &
npx vitest run "$@"
vitest=$?
echo "test: vitest took $((SECONDS - started)) s"
wait

status=$vitest
for step in typecheck tsd; do
  echo "test: $step (took $(cat "$logs/$step.s") s)"
  cat "$logs/$step"
  code="$(cat "$logs/$step.rc")"
  if [ "$code" != 0 ]; then echo "test: $step failed (exit $code)"; status=1; fi
done
rm -rf "$logs"
exit "$status"
