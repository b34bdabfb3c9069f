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
# shellcheck source=Benchmarks/streams/common.sh
. "$ROOT/Benchmarks/streams/common.sh"

streams_setup "$@"

COUNT=$((DURATION + 10))  # events enough to last the connecting and the window
mkdir -p "$TMP/stubs/mappings"
python3 - "$COUNT" > "$TMP/stubs/mappings/events.json" <<'PY'
import json, sys
events = [{"data": f"tick {n}", "delayMilliseconds": 1000} for n in range(int(sys.argv[1]))]
print(json.dumps({"request": {"method": "GET", "urlPath": "/events"}, "response": {"status": 200},
                  "metadata": {"stubserver": {"events": events, "streamEnd": "open"}}}))
PY

streams_start stubserver "$STUBSERVER" --stubs "$TMP/stubs" --port 0
curl -s --max-time 5 -o /dev/null "${SERVER_URL%/}/__admin/mappings"  # the threads a first request starts
streams_measure stubserver $((DURATION + 120)) python3 "$ROOT/Benchmarks/streams/sse_clients.py" /events "$CONNECTIONS" "$DURATION"
streams_start asyncio python3 "$ROOT/Benchmarks/streams/reference_sse.py" "$COUNT" 1
streams_measure asyncio $((DURATION + 120)) python3 "$ROOT/Benchmarks/streams/sse_clients.py" /events "$CONNECTIONS" "$DURATION"

echo
python3 "$ROOT/Benchmarks/streams/report.py" "$TMP/results" "$STRICT" "$DURATION" asyncio events 0.9
