#!/usr/bin/env bash
# End to end: the dashboard (/__admin/dashboard) in headless Chromium, driven over the DevTools protocol by
# .ci/browser/dashboard_check.py against the stubserver binary (argument 1) serving the demo stubs: requests
# journaled before the page opens are on it at its load event (screenshot requests-at-load-1366x800.png, taken
# without virtual time and with the live feed blocked; and a plain `chromium --headless --screenshot`), never
# "No requests yet" while there are some (with a token too: "Loading requests…" first), requests sent
# with curl appear live, an unmatched one shows its near miss and becomes a stub the next request matches, a
# scenario is set and reset, request values show as text and never run, a virtual host and an isolated server
# show their own requests, closing the tab frees its feed, and a token-protected server asks for its token.
# Screenshots (laptop and phone sizes, light and dark) go to argument 2 (default: .ci/artifacts/dashboard), kept
# by the workflow. Needs Python's websockets (STUBSERVER_PYTHON_WEBSOCKETS, else python3) and Debian's chromium,
# installed when missing; says SKIPPED and exits 0 when either cannot be had.
set -euo pipefail
BIN=$1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$ROOT/.ci/artifacts/dashboard}
PYTHON=${STUBSERVER_PYTHON_WEBSOCKETS:-python3}
if ! command -v chromium >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 || true
fi
command -v chromium >/dev/null || { echo "SKIPPED: no chromium (apt-get install chromium failed)"; exit 0; }
"$PYTHON" -c 'import websockets.sync.client' 2>/dev/null || { echo "SKIPPED: $PYTHON has no websockets"; exit 0; }
rm -rf "$OUT"
mkdir -p "$OUT"
timeout 600 "$PYTHON" "$ROOT/.ci/browser/dashboard_check.py" "$BIN" "$ROOT/Stubs" "$OUT"
ls "$OUT"/*.png
