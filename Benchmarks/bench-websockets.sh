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

STRICT=0
BUILD=1
ROUNDS=1
DURATION=20
PIN=0
SCRATCH=""
CONNECTIONS=1000
while [ $# -gt 0 ]; do
  case "$1" in
    --check) STRICT=1; shift ;;
    --connections) CONNECTIONS=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
[ "$CONNECTIONS" -ge 1 ] && [ "$CONNECTIONS" -le 4000 ] || { echo "bench-websockets: --connections takes 1 to 4000" >&2; exit 2; }
[ "$DURATION" -ge 2 ] && [ "$DURATION" -le 600 ] || { echo "bench-websockets: --duration takes 2 to 600" >&2; exit 2; }
bench_require python3 curl
PYTHON=${STUBSERVER_PYTHON_WEBSOCKETS:-python3}
"$PYTHON" -c 'import websockets.asyncio.server' 2>/dev/null || { echo "bench-websockets: $PYTHON has no websockets (pip install websockets; STUBSERVER_PYTHON_WEBSOCKETS=path)" >&2; exit 2; }
# Both servers and the client need a descriptor per connection, and more.
ulimit -n $((CONNECTIONS * 2 + 256)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"
[ "$(ulimit -n)" -gt $((CONNECTIONS + 64)) ] || { echo "bench-websockets: the open-files limit ($(ulimit -n)) is too low for $CONNECTIONS connections" >&2; exit 2; }

if [ -n "${STUBSERVER_BIN:-}" ]; then
  STUBSERVER=$STUBSERVER_BIN
else
  bench_build stubserver
  STUBSERVER="$(bench_bin_path)/stubserver"
fi
[ -x "$STUBSERVER" ] || { echo "bench-websockets: $STUBSERVER not built (run without --no-build)" >&2; exit 2; }

TMP=$(mktemp -d /tmp/bench-websockets.XXXXXX)
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$TMP/stubs/mappings"
cat > "$TMP/stubs/mappings/pong.json" <<'JSON'
{"request": {"method": "GET", "urlPath": "/ws"}, "response": {"status": 101},
 "metadata": {"stubserver": {"webSocket": {"onMessage": [{"matches": {"equalTo": "ping"}, "send": [{"text": "pong"}]}]}}}}
JSON

# measure NAME PID URL: runs the client against the server PID at URL, appends NAME and its JSON to results.
measure() {
  local port=${3##*:}
  port=${port%%/*}
  echo "Measuring $1 (pid $2, $3): $CONNECTIONS WebSockets, ${DURATION}s window..."
  printf '%s ' "$1" >> "$TMP/results"
  timeout $((DURATION + 240)) "$PYTHON" "$ROOT/Benchmarks/streams/ws_clients.py" "$port" /ws "$CONNECTIONS" "$DURATION" "$2" >> "$TMP/results"
}

"$STUBSERVER" --stubs "$TMP/stubs" --port 0 > "$TMP/stubserver.out" 2> "$TMP/stubserver.err" &
PIDS+=($!); STUB_PID=$!
STUB_URL=$(listening_url "$TMP/stubserver.out")
[ -n "$STUB_URL" ] || { echo "bench-websockets: stubserver did not start:" >&2; cat "$TMP/stubserver.err" >&2; exit 1; }
curl -s --max-time 5 -o /dev/null "${STUB_URL%/}/__admin/mappings"  # the threads a first request starts
measure stubserver "$STUB_PID" "$STUB_URL"
kill "$STUB_PID"; wait "$STUB_PID" 2>/dev/null || true

"$PYTHON" "$ROOT/Benchmarks/streams/reference_ws.py" > "$TMP/reference.out" 2> "$TMP/reference.err" &
PIDS+=($!); REF_PID=$!
REF_URL=$(listening_url "$TMP/reference.out")
[ -n "$REF_URL" ] || { echo "bench-websockets: the reference did not start:" >&2; cat "$TMP/reference.err" >&2; exit 1; }
measure websockets "$REF_PID" "$REF_URL"

echo
python3 - "$TMP/results" "$STRICT" "$DURATION" <<'PY'
import json, sys
rows = {}
for line in open(sys.argv[1]):
    name, _, text = line.partition(" ")
    rows[name] = json.loads(text)
strict, window = sys.argv[2] == "1", float(sys.argv[3])
print(f"{'server':<11} {'sockets':>7} {'silent':>6} {'round trips/s':>13} {'KiB/socket':>10} {'threads':>13} {'CPU ms/1k trips':>15}")
figures = {}
for name, r in rows.items():
    per_socket = (r["rss_open_kb"] - r["rss_before_kb"]) / max(1, r["opened"])
    cpu_ms = r["cpu_ticks"] * 1000 / r["ticks_per_second"]
    per_k = cpu_ms * 1000 / max(1, r["messages"])
    figures[name] = (per_socket, per_k)
    print(f"{name:<11} {r['opened']:>7} {r['silent']:>6} {r['messages'] / window:>13.0f} {per_socket:>10.1f} "
          f"{r['threads_before']:>5} -> {r['threads_open']:<5} {per_k:>15.1f}")
if "stubserver" in figures and "websockets" in figures:
    (sm, sc), (rm, rc) = figures["stubserver"], figures["websockets"]
    print(f"\nstubserver / websockets: memory per socket {sm / rm if rm > 0 else float('nan'):.2f}x, "
          f"CPU per round trip {sc / rc if rc > 0 else float('nan'):.2f}x")
failures = []
s = rows.get("stubserver")
if s:
    if s["silent"]:
        failures.append(f"{s['silent']} stubserver connections made no round trip")
    if s["threads_open"] - s["threads_before"] > 2:
        failures.append(f"stubserver's threads grew from {s['threads_before']} to {s['threads_open']}")
for failure in failures:
    print("bench-websockets:", failure)
sys.exit(1 if strict and failures else 0)
PY
