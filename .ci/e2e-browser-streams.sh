#!/usr/bin/env bash
# End to end with a browser: headless Chromium loads a page served by the stubserver binary (argument 1) whose
# script opens an EventSource and a WebSocket on stubs of the same server (.ci/browser/*.json); the page's text
# must show the server-sent events (a named one with its id) and the WebSocket conversation (welcome, ping → pong,
# the close with 4000). Chromium is driven over the DevTools protocol by .ci/browser/cdp_page_text.py, which
# needs Python's websockets (STUBSERVER_PYTHON_WEBSOCKETS, else python3). Installs Debian's chromium when missing;
# says SKIPPED and exits 0 when Chromium or websockets cannot be had.
set -euo pipefail
BIN=$1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${STUBSERVER_PYTHON_WEBSOCKETS:-python3}
if ! command -v chromium >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 || true
fi
command -v chromium >/dev/null || { echo "SKIPPED: no chromium (apt-get install chromium failed)"; exit 0; }
"$PYTHON" -c 'import websockets.sync.client' 2>/dev/null || { echo "SKIPPED: $PYTHON has no websockets"; exit 0; }

WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/stubs/mappings"
cp "$ROOT"/.ci/browser/*.json "$WORK/stubs/mappings/"
"$BIN" --stubs "$WORK/stubs" --port 0 > "$WORK/out" 2> "$WORK/err" &
SERVER_PID=$!
for _ in $(seq 1 100); do grep -q '^Listening on ' "$WORK/out" && break; sleep 0.1; done
URL=$(sed -n 's/^Listening on \(http:[^ ]*\).*/\1/p' "$WORK/out" | head -1)
[ -n "$URL" ] || { echo "FAIL: stubserver did not start:" >&2; cat "$WORK/err" >&2; exit 1; }
if grep -q warning "$WORK/err"; then echo "FAIL: loading the browser stubs warned:" >&2; cat "$WORK/err" >&2; exit 1; fi
EXPECTED_SSE='[0-0][goal 1-0 id 1]'
EXPECTED_WS='[welcome][pong][closed 4000]'
TEXT=$(timeout 120 "$PYTHON" "$ROOT/.ci/browser/cdp_page_text.py" "${URL%/}/page" 30 "$EXPECTED_SSE" "$EXPECTED_WS")
echo "The page shows: $TEXT"
if [[ "$TEXT" != *"$EXPECTED_SSE"* || "$TEXT" != *"$EXPECTED_WS"* ]]; then
  echo "FAIL: expected $EXPECTED_SSE and $EXPECTED_WS on the page" >&2
  exit 1
fi
echo "Chromium: EventSource got both events (the named one with its id), the WebSocket welcome, pong and close 4000"
