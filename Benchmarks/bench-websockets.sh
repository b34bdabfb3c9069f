#!/usr/bin/env bash
# WebSockets (issue 24): 1,000 open WebSocket connections, each sending "ping" and waiting for the stub's "pong"
# again and again, against the release stubserver and a reference in the same run: Python's `websockets` (asyncio)
# server answering "pong" (Benchmarks/streams/reference_ws.py). The same client (Benchmarks/streams/ws_clients.py,
# websockets' asyncio client) opens --connections connections one after another, then runs the round trips for
# --duration seconds. From /proc/PID of each server: VmRSS before the first connection and with all open (the
# difference divided by the connections is one open WebSocket's memory), threads, and CPU time over the window
# per 1,000 round trips. The client, on the same 2 cores, is the bottleneck of the round-trip rate: compare the
# servers by CPU per round trip, not by rate.
# It is a measurement: it exits 0 whatever the figures, unless --check is given (then 1 when a connection made no
# round trip, or stubserver's threads grew by more than 2 with the connections).
#
# Usage: Benchmarks/bench-websockets.sh [--check] [--connections N] [--duration SECONDS] [--no-build] [--scratch-path DIR]
# STUBSERVER_BIN=path runs that binary instead of the one built here; STUBSERVER_PYTHON_WEBSOCKETS=path a Python
# with websockets (else python3, when it has it; `python3 -m venv V && V/bin/pip install websockets`).
# Needs: swift, python3 with websockets, curl. Takes about 2 x (duration + 20) s after the build.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-websockets
BENCH_HELP_END=17
# shellcheck source=Benchmarks/lib.sh
. "$ROOT/Benchmarks/lib.sh"
# shellcheck source=Benchmarks/streams/common.sh
. "$ROOT/Benchmarks/streams/common.sh"

streams_setup "$@"
PYTHON=${STUBSERVER_PYTHON_WEBSOCKETS:-python3}
"$PYTHON" -c 'import websockets.asyncio.server' 2>/dev/null || { echo "bench-websockets: $PYTHON has no websockets (pip install websockets; STUBSERVER_PYTHON_WEBSOCKETS=path)" >&2; exit 2; }

mkdir -p "$TMP/stubs/mappings"
cat > "$TMP/stubs/mappings/pong.json" <<'JSON'
{"request": {"method": "GET", "urlPath": "/ws"}, "response": {"status": 101},
 "metadata": {"stubserver": {"webSocket": {"onMessage": [{"matches": {"equalTo": "ping"}, "send": [{"text": "pong"}]}]}}}}
JSON

streams_start stubserver "$STUBSERVER" --stubs "$TMP/stubs" --port 0
curl -s --max-time 5 -o /dev/null "${SERVER_URL%/}/__admin/mappings"  # the threads a first request starts
streams_measure stubserver $((DURATION + 240)) "$PYTHON" "$ROOT/Benchmarks/streams/ws_clients.py" /ws "$CONNECTIONS" "$DURATION"
streams_start websockets "$PYTHON" "$ROOT/Benchmarks/streams/reference_ws.py"
streams_measure websockets $((DURATION + 240)) "$PYTHON" "$ROOT/Benchmarks/streams/ws_clients.py" /ws "$CONNECTIONS" "$DURATION"

echo
python3 "$ROOT/Benchmarks/streams/report.py" "$TMP/results" "$STRICT" "$DURATION" websockets "round trips" 0
