#!/usr/bin/env bash
# End to end: run the stubserver binary on the demo stubs with --port 0, check every demo route with the
# same script that was verified against WireMock 2.35.1, check a near-miss 404, then stop it with SIGTERM
# and expect exit code 0.
#
#   .ci/e2e-demo.sh .build/release/stubserver
set -euo pipefail
BIN=${1:?usage: e2e-demo.sh PATH_TO_STUBSERVER}
cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

"$BIN" --stubs Stubs --port 0 >"$WORK/out" 2>"$WORK/err" &
PID=$!
for _ in $(seq 1 100); do
  grep -q '^Listening on ' "$WORK/out" 2>/dev/null && break
  kill -0 "$PID" 2>/dev/null || { echo "stubserver exited early:"; cat "$WORK/err"; exit 1; }
  sleep 0.1
done
BASE=$(sed -n 's/^Listening on //p' "$WORK/out" | head -n 1)
[ -n "$BASE" ] || { echo "no 'Listening on' line"; cat "$WORK/err"; exit 1; }
echo "stubserver at $BASE"

bash Stubs/check-against-wiremock.sh "$BASE"

status=$(curl -sS -o "$WORK/miss" -w '%{http_code}' "$BASE/users/octocat/repoz")
grep -q "Closest stubs" "$WORK/miss" || { echo "FAIL: no near-miss report"; cat "$WORK/miss"; exit 1; }
[ "$status" = 404 ] || { echo "FAIL: unmatched request gave $status"; exit 1; }
echo "near-miss 404: ok"

kill -TERM "$PID"
code=0; wait "$PID" || code=$?
PID=
[ "$code" = 0 ] || { echo "FAIL: exit code $code after SIGTERM"; cat "$WORK/err"; exit 1; }
echo "e2e: stopped cleanly on SIGTERM"
