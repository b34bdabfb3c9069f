#!/usr/bin/env bash
# Dynamic responses benchmark: one in-process StubServer (Benchmarks/dynamic-bench) answering the same JSON body
#   static     a static stub: bytes prepared when the stub is added
#   closure    a synchronous Swift closure stub: runs on a worker thread, the response is built per request
#   async      an async Swift closure stub: a task per request
#   templated  a file stub with "transformers": ["response-template"]
# all in the same process and run, so the ratios to static hold on a busy machine. wrk (-t1 -c16 -d5s --latency,
# keep-alive) measures each in turn, the order alternating between rounds; the best round counts. The server is
# pinned to CPU 0 and wrk to CPU 1 when the machine has 2 or more (taskset).
#
# Prints requests/s, the ratio to static, p99 latency and the server's CPU time per request (steadier than req/s
# on a busy machine), with PASS/FAIL against: templated >= 0.5x static keep-alive throughput. The closure rows
# are reported without a target. It exits 0 even when a target is missed, unless --strict is given (then 1).
#
# Usage: Benchmarks/bench-dynamic.sh [--strict] [--no-build] [--rounds N] [--duration SECONDS]
#                                    [--scratch-path DIR] [--no-pin]
# Needs: swift, wrk, curl, python3. Takes about 60 s after the build with the defaults.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-dynamic
BENCH_HELP_END=18
# shellcheck source=Benchmarks/lib.sh
. "$ROOT/Benchmarks/lib.sh"

STRICT=0
BUILD=1
ROUNDS=2
DURATION=5
PIN=1
SCRATCH=""
while [ $# -gt 0 ]; do
  bench_option "$@"
  shift "$BENCH_SHIFT"
done
bench_require wrk curl python3

bench_build dynamic-bench
SERVER_BIN="$(bench_bin_path)/dynamic-bench"
[ -x "$SERVER_BIN" ] || { echo "bench-dynamic: $SERVER_BIN not built (run without --no-build)" >&2; exit 2; }

bench_pin_cpus "$PIN"

TMP=$(mktemp -d /tmp/bench-dynamic.XXXXXX)
SERVER_PID=""
cleanup() {
  # Only the server this script started, by PID.
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A templated file stub answering the static body, with the login taken from the query.
"$SERVER_BIN" --print-body > "$TMP/body.json"
mkdir -p "$TMP/stubs/mappings"
python3 - "$TMP/body.json" "$TMP/stubs/mappings/templated.json" <<'PY'
import json, sys
body = open(sys.argv[1]).read().strip().replace('"octocat"', '"{{request.query.login}}"', 1)
json.dump({"request": {"method": "GET", "urlPath": "/templated"},
           "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": body,
                        "transformers": ["response-template"]}}, open(sys.argv[2], "w"))
PY

"${SERVER_CPU[@]}" "$SERVER_BIN" --port 0 --stubs "$TMP/stubs" > "$TMP/server.out" 2> "$TMP/server.err" &
SERVER_PID=$!
BASE=$(listening_url "$TMP/server.out")
[ -n "$BASE" ] || { echo "bench-dynamic: dynamic-bench did not start:" >&2; cat "$TMP/server.err" >&2; exit 1; }
BASE=${BASE%/}
wait_for "$BASE/static"

declare -A URLS=([static]="$BASE/static" [closure]="$BASE/closure" [async]="$BASE/async" [templated]="$BASE/templated?login=octocat")
NAMES="static closure async templated"
curl -s -o "$TMP/static.body" "${URLS[static]}"
for name in $NAMES; do
  curl -s -o "$TMP/$name.body" "${URLS[$name]}"
  cmp -s "$TMP/static.body" "$TMP/$name.body" || {
    echo "bench-dynamic: $name answers a different body:" >&2; head -c 400 "$TMP/$name.body" >&2; echo >&2; exit 1; }
done
echo "Body: $(wc -c < "$TMP/static.body") bytes from each. Server: $BASE (pid $SERVER_PID)   wrk: -t1 -c16 -d${DURATION}s keep-alive${SERVER_CPU:+, server on CPU 0, wrk on CPU 1}"

WARM_UP_URLS=()
for name in $NAMES; do WARM_UP_URLS+=("${URLS[$name]}"); done
bench_warm_up "${WARM_UP_URLS[@]}"

: > "$TMP/results"
for round in $(seq 1 "$ROUNDS"); do
  order=$NAMES
  [ $((round % 2)) = 0 ] && order=$(echo "$NAMES" | tr ' ' '\n' | tac | tr '\n' ' ')
  for name in $order; do run_wrk "$name" keep-alive "${URLS[$name]}" "$SERVER_PID"; done
done
kill -0 "$SERVER_PID" 2>/dev/null || echo "bench-dynamic: dynamic-bench is no longer running (see $TMP/server.err)" >&2

echo
if python3 - "$TMP/results" "$STRICT" > "$TMP/table" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
strict = sys.argv[2] == "1"
best = {}
for name, mode, rps, p99, errors, cpu in rows:
    if name not in best or float(rps) > best[name][0]:
        best[name] = (float(rps), float(p99), int(errors), float(cpu))
static = best.get("static", (0.0, float("nan"), 0, float("nan")))
targets = {"templated": 0.5}
missed = 0
print(f"{'stub':<11}{'req/s':>10}{'x static':>10}{'p99 ms':>9}{'errors':>8}{'CPU us/req':>12}{'x static':>10}  target")
for name in ("static", "closure", "async", "templated"):
    if name not in best:
        continue
    rps, p99, errors, cpu = best[name]
    ratio = rps / static[0] if static[0] else 0.0
    cpu_ratio = cpu / static[3] if static[3] else float("nan")
    verdict = ""
    if name in targets:
        ok = ratio >= targets[name] and errors == 0
        missed += not ok
        verdict = f">= {targets[name]:.1f}x  {'PASS' if ok else 'FAIL'}"
    print(f"{name:<11}{rps:>10.0f}{ratio:>9.2f}x{p99:>9.3f}{errors:>8}{cpu:>12.1f}{cpu_ratio:>9.2f}x  {verdict}")
print("all targets met" if missed == 0 else f"{missed} target(s) missed")
sys.exit(1 if strict and missed else 0)
PY
then status=0; else status=$?; fi
cat "$TMP/table"
exit $status
