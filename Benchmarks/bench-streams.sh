#!/usr/bin/env bash
# Open event streams (issue 24): what 1,000 open server-sent-event streams, each receiving an event a second, cost
# the release stubserver in memory, threads and CPU, against a reference measured in the same run: a plain asyncio
# server of Python's standard library doing the same (Benchmarks/streams/reference_sse.py).
#
# stubserver serves a stub file whose response is `metadata.stubserver.events`: COUNT events, each 1 s after the
# one before (`delayMilliseconds: 1000`), then `streamEnd: open`. The client (Benchmarks/streams/sse_clients.py,
# asyncio) opens --connections streams one after another, waits 1 s, then counts the events each receives for
# --duration seconds. From /proc/PID of each server: VmRSS before the first stream and with all open (the
# difference divided by the streams is one open stream's memory), threads, and CPU time over the window, per
# 1,000 events delivered. A stream that received nothing in the window is counted as silent.
# It is a measurement: it exits 0 whatever the figures, unless --check is given (then 1 when a stream was silent,
# fewer events than 0.9 per stream-second arrived, or stubserver's threads grew by more than 2 with the streams).
#
# Usage: Benchmarks/bench-streams.sh [--check] [--connections N] [--duration SECONDS] [--no-build] [--scratch-path DIR]
# STUBSERVER_BIN=path runs that binary instead of the one built here.
# Needs: swift, python3, curl. Takes about 2 x (duration + 5) s after the build.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-streams
BENCH_HELP_END=16
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
[ "$CONNECTIONS" -ge 1 ] && [ "$CONNECTIONS" -le 4000 ] || { echo "bench-streams: --connections takes 1 to 4000" >&2; exit 2; }
[ "$DURATION" -ge 2 ] && [ "$DURATION" -le 600 ] || { echo "bench-streams: --duration takes 2 to 600" >&2; exit 2; }
bench_require python3 curl
# Both servers and the client need a descriptor per stream, and more.
ulimit -n $((CONNECTIONS * 2 + 256)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"
[ "$(ulimit -n)" -gt $((CONNECTIONS + 64)) ] || { echo "bench-streams: the open-files limit ($(ulimit -n)) is too low for $CONNECTIONS streams" >&2; exit 2; }

if [ -n "${STUBSERVER_BIN:-}" ]; then
  STUBSERVER=$STUBSERVER_BIN
else
  bench_build stubserver
  STUBSERVER="$(bench_bin_path)/stubserver"
fi
[ -x "$STUBSERVER" ] || { echo "bench-streams: $STUBSERVER not built (run without --no-build)" >&2; exit 2; }

TMP=$(mktemp -d /tmp/bench-streams.XXXXXX)
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

COUNT=$((DURATION + 10))  # events enough to last the connecting and the window
mkdir -p "$TMP/stubs/mappings"
python3 - "$COUNT" > "$TMP/stubs/mappings/events.json" <<'PY'
import json, sys
events = [{"data": f"tick {n}", "delayMilliseconds": 1000} for n in range(int(sys.argv[1]))]
print(json.dumps({"request": {"method": "GET", "urlPath": "/events"}, "response": {"status": 200},
                  "metadata": {"stubserver": {"events": events, "streamEnd": "open"}}}))
PY

# measure NAME PID URL: runs the client against the server PID at URL, appends NAME and its JSON to results.
measure() {
  local port=${3##*:}
  port=${port%%/*}
  echo "Measuring $1 (pid $2, $3): $CONNECTIONS streams, ${DURATION}s window..."
  printf '%s ' "$1" >> "$TMP/results"
  timeout $((DURATION + 120)) python3 "$ROOT/Benchmarks/streams/sse_clients.py" "$port" /events "$CONNECTIONS" "$DURATION" "$2" >> "$TMP/results"
}

"$STUBSERVER" --stubs "$TMP/stubs" --port 0 > "$TMP/stubserver.out" 2> "$TMP/stubserver.err" &
PIDS+=($!); STUB_PID=$!
STUB_URL=$(listening_url "$TMP/stubserver.out")
[ -n "$STUB_URL" ] || { echo "bench-streams: stubserver did not start:" >&2; cat "$TMP/stubserver.err" >&2; exit 1; }
curl -s --max-time 5 -o /dev/null "${STUB_URL%/}/__admin/mappings"  # the threads a first request starts
measure stubserver "$STUB_PID" "$STUB_URL"
kill "$STUB_PID"; wait "$STUB_PID" 2>/dev/null || true

python3 "$ROOT/Benchmarks/streams/reference_sse.py" "$COUNT" 1 > "$TMP/reference.out" 2> "$TMP/reference.err" &
PIDS+=($!); REF_PID=$!
REF_URL=$(listening_url "$TMP/reference.out")
[ -n "$REF_URL" ] || { echo "bench-streams: the reference did not start:" >&2; cat "$TMP/reference.err" >&2; exit 1; }
measure asyncio "$REF_PID" "$REF_URL"

echo
python3 - "$TMP/results" "$STRICT" "$DURATION" <<'PY'
import json, sys
rows = {}
for line in open(sys.argv[1]):
    name, _, text = line.partition(" ")
    rows[name] = json.loads(text)
strict, window = sys.argv[2] == "1", float(sys.argv[3])
print(f"{'server':<11} {'streams':>7} {'silent':>6} {'events/s':>9} {'KiB/stream':>10} {'threads':>13} {'CPU ms/1k events':>16}")
figures = {}
for name, r in rows.items():
    per_stream = (r["rss_open_kb"] - r["rss_before_kb"]) / max(1, r["opened"])
    cpu_ms = r["cpu_ticks"] * 1000 / r["ticks_per_second"]
    per_k = cpu_ms * 1000 / max(1, r["events"])
    figures[name] = (per_stream, per_k)
    print(f"{name:<11} {r['opened']:>7} {r['silent']:>6} {r['events'] / window:>9.0f} {per_stream:>10.1f} "
          f"{r['threads_before']:>5} -> {r['threads_open']:<5} {per_k:>16.1f}")
if "stubserver" in figures and "asyncio" in figures:
    (sm, sc), (am, ac) = figures["stubserver"], figures["asyncio"]
    print(f"\nstubserver / asyncio: memory per stream {sm / am if am > 0 else float('nan'):.2f}x, "
          f"CPU per event {sc / ac if ac > 0 else float('nan'):.2f}x")
failures = []
s = rows.get("stubserver")
if s:
    if s["silent"]:
        failures.append(f"{s['silent']} stubserver streams received nothing")
    if s["events"] < 0.9 * s["opened"] * window:
        failures.append(f"stubserver delivered {s['events']} events, under 0.9 per stream-second")
    if s["threads_open"] - s["threads_before"] > 2:
        failures.append(f"stubserver's threads grew from {s['threads_before']} to {s['threads_open']}")
for failure in failures:
    print("bench-streams:", failure)
sys.exit(1 if strict and failures else 0)
PY
