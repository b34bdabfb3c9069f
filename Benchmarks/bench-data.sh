#!/usr/bin/env bash
# Data store benchmark, two measurements in one run on the same machine, against the release `stubserver` with
# default flags (only --port 0 and --stubs are added; no --data-dir: the collection lives in memory):
#   get      the cost of `GET /api/todos/1` answered by a data collection (collections/todos.json, 100 seed items)
#            against `GET /static/todos/1` answered by a stub mapping with the same JSON body: wrk -t1 -c16 for
#            DURATION seconds each, twice, the server's CPU time per request (utime + stime from /proc/PID/stat);
#            prints both (best of the rounds) and the ratio data store / static stub.
#   flat     OPS operations (default 100,000) of a mix on a fresh server, in windows of OPS/WINDOWS: 40% GET of
#            a seed item, 20% GET /api/todos?limit=20, 20% POST of a new item, 20% DELETE of an item this driver
#            posted earlier (so the collection stays bounded, far under maxItems), sent by a Python http.client
#            driver (4 threads, one keep-alive connection each) after a warm-up window that is not counted. For
#            each window: the server's CPU µs per operation; then the ratio last window / first window (flat ≈ 1:
#            an operation must not cost more because many came before it).
# It is a measurement: it exits 0 whatever the figures. --check exits 1 when the flat ratio exceeds --max-ratio
# (default 2.0) or an operation got an unexpected status.
#
# Usage: Benchmarks/bench-data.sh [--check] [--max-ratio R] [--ops N] [--windows N] [--duration SECONDS]
#                                 [--no-build] [--no-pin] [--scratch-path DIR]
# STUBSERVER_BIN runs that binary instead of the one built here.
# Needs: swift, wrk, curl, python3. Takes about a minute after the build.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-data
BENCH_HELP_END=20
# shellcheck source=Benchmarks/lib.sh
. "$ROOT/Benchmarks/lib.sh"

CHECK=0
MAX_RATIO=2.0
OPS=100000
WINDOWS=10
BUILD=1
PIN=1
SCRATCH=""
DURATION=5
while [ $# -gt 0 ]; do
  case "$1" in
    --check) CHECK=1; shift ;;
    --max-ratio) MAX_RATIO=$2; shift 2 ;;
    --ops) OPS=$2; shift 2 ;;
    --windows) WINDOWS=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
[ "$((OPS / WINDOWS))" -ge 100 ] || { echo "$BENCH_NAME: at least 100 operations per window" >&2; exit 2; }
bench_require wrk curl python3
bench_build stubserver
STUBSERVER=${STUBSERVER_BIN:-"$(bench_bin_path)/stubserver"}
[ -x "$STUBSERVER" ] || { echo "$BENCH_NAME: $STUBSERVER not built (run without --no-build)" >&2; exit 2; }
bench_pin_cpus "$PIN"

TMP=$(mktemp -d /tmp/bench-data.XXXXXX)
PIDS=()
# shellcheck disable=SC2317  # invoked by the trap
cleanup() {
  # Only the servers this script started, by PID.
  local pid
  for pid in "${PIDS[@]}"; do
    if kill "$pid" 2>/dev/null; then wait "$pid" 2>/dev/null || true; fi
  done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
: > "$TMP/results"

# The stubs: the collection, and a mapping answering the same bytes as its item 1.
STUBS="$TMP/stubs"
mkdir -p "$STUBS/mappings" "$STUBS/collections"
python3 - "$STUBS" <<'PY'
import json, sys
root = sys.argv[1]
seed = [{"id": n, "title": f"Todo number {n}", "done": n % 2 == 0, "tags": ["bench", "data"]} for n in range(1, 101)]
json.dump({"name": "todos", "basePath": "/api/todos", "seed": seed,
           "schema": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}},
          open(f"{root}/collections/todos.json", "w"))
json.dump({"request": {"method": "GET", "urlPath": "/static/todos/1"},
           "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                        "body": json.dumps(seed[0], separators=(",", ":"))}},
          open(f"{root}/mappings/static.json", "w"))
PY

# start NAME: starts the server, sets URL and PID.
start() {
  "${SERVER_CPU[@]}" "$STUBSERVER" --stubs "$STUBS" --port 0 > "$TMP/$1.out" 2> "$TMP/$1.err" &
  PID=$!; PIDS+=("$PID")
  URL=$(listening_url "$TMP/$1.out")
  [ -n "$URL" ] || { echo "$BENCH_NAME: stubserver did not start:" >&2; cat "$TMP/$1.err" >&2; exit 1; }
  URL=${URL%/}
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# --- get: data store against a static stub -------------------------------------------------------------------
start get
store_body=$(curl -s "$URL/api/todos/1")
static_body=$(curl -s "$URL/static/todos/1")
[ "$store_body" = "$static_body" ] || echo "  warning: the bodies differ: '$store_body' and '$static_body'"
echo "get: GET /api/todos/1 (data store) and GET /static/todos/1 (stub mapping), ${#store_body} bytes each"
bench_warm_up "$URL/api/todos/1" "$URL/static/todos/1"
for _ in 1 2; do
  run_wrk store keep-alive "$URL/api/todos/1" "$PID"
  run_wrk static keep-alive "$URL/static/todos/1" "$PID"
done
python3 - "$TMP/results" <<'PY'
import sys
best = {}
for name, _, _, _, _, cpu in (line.split() for line in open(sys.argv[1])):
    best[name] = min(best.get(name, float(cpu)), float(cpu))
print(f"  best server CPU per request: data store {best['store']:.1f} us, static stub {best['static']:.1f} us; "
      f"ratio data store / static stub {best['store'] / best['static']:.2f}")
PY
if kill "$PID" 2>/dev/null; then wait "$PID" 2>/dev/null || true; fi

# --- flat: CPU per operation over OPS operations ---------------------------------------------------------------
start flat
echo "flat: $OPS operations in $WINDOWS windows (40% GET item, 20% list ?limit=20, 20% POST, 20% DELETE), pid $PID"
set +e
"${CLIENT_CPU[@]}" timeout 150 python3 - "$URL" "$PID" "$OPS" "$WINDOWS" "$(getconf CLK_TCK)" "$CHECK" "$MAX_RATIO" <<'PY'
import http.client, json, sys, threading, urllib.parse
url, pid, ops, windows, hz, check, max_ratio = sys.argv[1:8]
pid, ops, windows, hz, check, max_ratio = int(pid), int(ops), int(windows), int(hz), check == "1", float(max_ratio)
parsed = urllib.parse.urlparse(url)
THREADS = 4
# Ten operations a cycle: 4 GET item, 2 list, 2 POST, 2 DELETE of the oldest item this thread posted.
CYCLE = ["get", "post", "get", "list", "delete", "get", "post", "list", "get", "delete"]

def ticks():
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])

class Worker:
    def __init__(self, number):
        self.number, self.step, self.posted, self.errors = number, 0, [], []
        self.connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=30)

    def send(self, method, path, body=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        self.connection.request(method, path, body, headers)
        response = self.connection.getresponse()
        return response.status, response.read()

    def run(self, count):
        for _ in range(count):
            op = CYCLE[self.step % len(CYCLE)]
            self.step += 1
            if op == "delete" and not self.posted:
                op = "get"  # a POST before failed
            if op == "get":
                status, _ = self.send("GET", f"/api/todos/{1 + self.step % 100}")
                expected = 200
            elif op == "list":
                status, _ = self.send("GET", "/api/todos?limit=20")
                expected = 200
            elif op == "post":
                status, body = self.send("POST", "/api/todos",
                                         json.dumps({"title": f"t{self.number}-{self.step}", "done": False}))
                expected = 201
                if status == 201:
                    self.posted.append(json.loads(body)["id"])
            else:
                status, _ = self.send("DELETE", f"/api/todos/{self.posted.pop(0)}")
                expected = 204
            if status != expected and len(self.errors) < 5:
                self.errors.append(f"{op}: {status}, expected {expected}")

workers = [Worker(n) for n in range(THREADS)]

def window(count):
    threads = [threading.Thread(target=w.run, args=(count // THREADS,)) for w in workers]
    before = ticks()
    for t in threads: t.start()
    for t in threads: t.join()
    return (ticks() - before) * 1e6 / hz / (count // THREADS * THREADS)

per_window = ops // windows
window(max(1000, per_window // 5))  # warm-up, not counted
print(f"  {'window':>6} {'operations':>11} {'CPU us/op':>10}")
costs = []
for number in range(1, windows + 1):
    costs.append(window(per_window))
    print(f"  {number:>6} {number * per_window:>11} {costs[-1]:>10.1f}")
errors = [e for w in workers for e in w.errors]
ratio = costs[-1] / costs[0] if costs[0] else float("nan")
print(f"  ratio last window / first window: {ratio:.2f} (flat is about 1)")
if errors:
    print(f"  unexpected statuses: {errors}")
if check:
    if errors or not ratio <= max_ratio:
        print(f"FAIL: ratio {ratio:.2f} above {max_ratio} or unexpected statuses", file=sys.stderr)
        sys.exit(1)
    print(f"  check: ratio {ratio:.2f} <= {max_ratio}, every status as expected")
PY
status=$?
set -e
echo "  collection at the end: $(curl -s -o /dev/null -D - "$URL/api/todos?limit=1" | tr -d '\r' | sed -n 's/^X-Total-Count: /X-Total-Count /ip')"
if [ "$status" != 0 ] && [ "$CHECK" = 1 ]; then exit 1; fi
[ "$status" = 0 ] || echo "$BENCH_NAME: the flat driver exited $status (timeout 150 s or an error above)"
exit 0
