#!/usr/bin/env bash
# The Python `wiremock` admin client (pip wiremock==2.7.0, in a venv) against a stubserver binary:
# create/list/delete mappings, find and count requests, near misses, unmatched, reset.
# Usage: .ci/e2e-wiremock-client.sh PATH/TO/stubserver
set -euo pipefail
binary=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# A failed install fails this step (set -e): the check must never pass by not running.
if ! python3 -m venv "$work/venv" 2>/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
  python3 -m venv "$work/venv"
fi
"$work/venv/bin/pip" install --quiet --disable-pip-version-check wiremock==2.7.0
"$work/venv/bin/python" -c 'import wiremock.client' || { echo "FAIL: the wiremock package does not import" >&2; exit 1; }

"$binary" --stubs "$here/../Stubs" --port 0 > "$work/stdout" 2> "$work/stderr" &
server_pid=$!
for _ in $(seq 1 100); do
  grep -q '^Listening on ' "$work/stdout" && break
  sleep 0.1
done
url=$(sed -n 's/^Listening on //p' "$work/stdout" | head -1)
[ -n "$url" ] || { echo "FAIL: stubserver did not start"; cat "$work/stderr"; exit 1; }

"$work/venv/bin/python" "$here/wiremock-client-e2e.py" "$url"

# POST /__admin/shutdown ends the process with exit 0.
curl -fsS -X POST "$url/__admin/shutdown" > /dev/null
status=0
wait "$server_pid" || status=$?
server_pid=
[ "$status" -eq 0 ] || { echo "FAIL: stubserver exited $status after /__admin/shutdown" >&2; exit 1; }
echo "ok: POST /__admin/shutdown → exit 0"
