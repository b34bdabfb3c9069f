#!/usr/bin/env bash
# Sustained-load benchmark (issue 17): request N must cost what request 1 did, with DEFAULT flags (journal on).
#
# Two servers, each serving a static answer in fixed windows of the same number of keep-alive requests
# (ApacheBench: ab -k -c 16 -n PER-WINDOW; wrk counts time, not requests):
#   cli         the release `stubserver --stubs Stubs` with default flags (only --port 0 is added)
#   in-process  Benchmarks/dynamic-bench: `StubServer` with its default configuration, GET /static
# For each window it prints req/s, the server's CPU time per request (the sum of its threads' run time from
# /proc/PID/task/*/schedstat, in ns: precise even for short windows), the journal's size (GET
# /__admin/requests?limit=1, meta.total) and RSS, then the last window's CPU per request against the first's and
# the costliest window's against the median. The gate (--strict) is robust to one noisy window: the median of the
# last 3 windows against that of the first 3 (work that keeps growing with traffic), and the second-costliest
# window against the median (work that grew while a bounded structure filled, as the journal did in issue 17:
# 54x with the old code). Noise gave at most 1.7x for a single window on a quiet or busy machine.
#
# Then, with the CLI's journal full: /hello's p99 while idle and while an admin client lists the whole journal
# in a loop (GET /__admin/requests, 10,000 entries), which must not block serving.
# Then (full form, nginx installed): the CLI after those requests against nginx with one worker in the same run,
# keep-alive and `Connection: close` (targets: >= 1.3x and >= 1.0x nginx's req/s).
#
# Usage: Benchmarks/bench-sustained.sh [--short] [--strict] [--max-ratio R] [--requests N] [--windows N]
#                                      [--no-build] [--no-nginx] [--no-pin] [--scratch-path DIR]
#   default   200,000 requests per server in 50 windows of 4,000; nginx comparison; about 2 minutes
#   --short   30,000 requests per server in 15 windows of 2,000; no nginx; CI's complexity guard (well under
#             a minute after the build). Small windows put several inside the journal's growth to its
#             10,000-entry cap, where issue 17's bug lived.
# --strict exits 1 when a ratio exceeds --max-ratio (default 2) or a request failed. STUBSERVER_BIN and
# DYNAMIC_BIN run those binaries instead of the ones built here.
# Needs: swift, wrk, ab (apache2-utils), curl, python3 (and nginx-light for the comparison).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-sustained
BENCH_HELP_END=25
# shellcheck source=Benchmarks/lib.sh
. "$ROOT/Benchmarks/lib.sh"

STRICT=0
BUILD=1
PIN=1
SCRATCH=""
REQUESTS=200000
WINDOWS=50
NGINX_COMPARE=1
MAX_RATIO=2
DURATION=5
ROUNDS=2
while [ $# -gt 0 ]; do
  case "$1" in
    --short) REQUESTS=30000; WINDOWS=15; NGINX_COMPARE=0; shift ;;
    --requests) REQUESTS=$2; shift 2 ;;
    --windows) WINDOWS=$2; shift 2 ;;
    --no-nginx) NGINX_COMPARE=0; shift ;;
    --max-ratio) MAX_RATIO=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
PER_WINDOW=$((REQUESTS / WINDOWS))
[ "$PER_WINDOW" -ge 100 ] || { echo "bench-sustained: at least 100 requests per window" >&2; exit 2; }
bench_require wrk ab curl python3
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ "$NGINX_COMPARE" = 1 ] && [ ! -x "$NGINX" ]; then
  echo "bench-sustained: nginx not found: the comparison is skipped (apt-get install -y nginx-light)"
  NGINX_COMPARE=0
fi

bench_build stubserver
bench_build dynamic-bench
STUBSERVER=${STUBSERVER_BIN:-"$(bench_bin_path)/stubserver"}
DYNAMIC=${DYNAMIC_BIN:-"$(bench_bin_path)/dynamic-bench"}
for bin in "$STUBSERVER" "$DYNAMIC"; do
  [ -x "$bin" ] || { echo "bench-sustained: $bin not built (run without --no-build)" >&2; exit 2; }
done
bench_pin_cpus "$PIN"

TMP=$(mktemp -d /tmp/bench-sustained.XXXXXX)
PIDS=()
cleanup() {
  # Only the servers and loops this script started, by PID.
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
: > "$TMP/results"
: > "$TMP/windows"

# run_ns PID: the run time of all the process's threads so far, in nanoseconds.
run_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
journal_total() {
  curl -s "$1/__admin/requests?limit=1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["meta"]["total"])' 2>/dev/null || echo "?"
}

# windows NAME URL ADMIN-BASE PID: REQUESTS requests to URL in WINDOWS windows; one line per window in $TMP/windows.
windows() {
  local name=$1 url=$2 admin=$3 pid=$4 window before after out
  echo "$name: $WINDOWS windows of $PER_WINDOW keep-alive requests to $url (pid $pid)"
  printf '  %-7s %9s %10s %12s %9s %8s\n' window requests req/s "CPU us/req" journal "RSS MB"
  for window in $(seq 1 "$WINDOWS"); do
    out="$TMP/ab-$name-$window.txt"
    before=$(run_ns "$pid")
    "${CLIENT_CPU[@]}" timeout 120 ab -q -k -c 16 -n "$PER_WINDOW" "$url" > "$out" 2>&1 || true
    after=$(run_ns "$pid")
    python3 - "$out" "$name" "$window" "$((after - before))" "$(journal_total "$admin")" "$(rss_kb "$pid")" "$PER_WINDOW" >> "$TMP/windows" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
name, window, ns, journal, rss_kb, per_window = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], int(sys.argv[6]), int(sys.argv[7])
field = lambda label: re.search(label + r":\s+([\d.]+)", text)
count = int(field("Complete requests").group(1)) if field("Complete requests") else 0
rps = field("Requests per second")
errors = sum(int(field(label).group(1)) for label in ("Failed requests", "Non-2xx responses") if field(label))
if count < per_window: errors += per_window - count
cpu = ns / 1000 / count if count else float("nan")
print(name, window, count, rps.group(1) if rps else "0", "%.2f" % cpu, journal, "%.1f" % (rss_kb / 1024), errors)
PY
    tail -1 "$TMP/windows" | awk '{ printf "  %-7s %9d %10.0f %12.2f %9s %8.1f%s\n", $2, $2 * '"$PER_WINDOW"', $4, $5, $6, $7, ($8 > 0 ? "  errors " $8 : "") }'
  done
}

# --- The CLI, default flags ----------------------------------------------------------------------------------
"${SERVER_CPU[@]}" "$STUBSERVER" --stubs "$ROOT/Stubs" --port 0 > "$TMP/cli.out" 2> "$TMP/cli.err" &
CLI_PID=$!; PIDS+=("$CLI_PID")
CLI=$(listening_url "$TMP/cli.out")
[ -n "$CLI" ] || { echo "bench-sustained: stubserver did not start:" >&2; cat "$TMP/cli.err" >&2; exit 1; }
CLI=${CLI%/}
wait_for "$CLI/hello"
load_note
windows cli "$CLI/hello" "$CLI" "$CLI_PID"

# /hello while an admin client lists the full journal in a loop (bounded: at most 400 listings or 10 s).
probe() { # NAME: wrk for 3 s on /hello, p99 in ms appended to $TMP/results as "probe NAME p99"
  "${CLIENT_CPU[@]}" wrk -t1 -c4 -d3s --latency "$CLI/hello" > "$TMP/probe-$1.txt" 2>&1 || true
  python3 - "$TMP/probe-$1.txt" "$1" >> "$TMP/results" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
print("probe", sys.argv[2], "%.3f" % (float(p99.group(1)) * scale[p99.group(2)]) if p99 else "nan")
PY
}
probe idle
( end=$((SECONDS + 10)); n=0
  while [ $SECONDS -lt $end ] && [ $n -lt 400 ]; do curl -s -o /dev/null "$CLI/__admin/requests"; n=$((n + 1)); done
  echo "$n" > "$TMP/listings" ) &
LISTER=$!; PIDS+=("$LISTER")
sleep 0.5
probe listing
wait "$LISTER" 2>/dev/null || true
echo "/hello p99 with $(journal_total "$CLI") journal entries: idle $(awk '$2 == "idle" { print $3 }' "$TMP/results") ms," \
  "while an admin client listed the journal $(cat "$TMP/listings" 2>/dev/null || echo '?') times: $(awk '$2 == "listing" { print $3 }' "$TMP/results") ms"

# --- The in-process server, default configuration -------------------------------------------------------------
"${SERVER_CPU[@]}" "$DYNAMIC" --port 0 > "$TMP/dynamic.out" 2> "$TMP/dynamic.err" &
DYNAMIC_PID=$!; PIDS+=("$DYNAMIC_PID")
DYN=$(listening_url "$TMP/dynamic.out")
[ -n "$DYN" ] || { echo "bench-sustained: dynamic-bench did not start:" >&2; cat "$TMP/dynamic.err" >&2; exit 1; }
DYN=${DYN%/}
wait_for "$DYN/static"
echo
windows in-process "$DYN/static" "$DYN" "$DYNAMIC_PID"
kill "$DYNAMIC_PID" 2>/dev/null && wait "$DYNAMIC_PID" 2>/dev/null || true

# --- Against nginx, after the sustained run ------------------------------------------------------------------
if [ "$NGINX_COMPARE" = 1 ]; then
  curl -s -o "$TMP/hello.body" "$CLI/hello"
  NGINX_PORT=$(free_port)
  cat > "$TMP/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $TMP/nginx.pid;
error_log $TMP/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  server_tokens off;
  client_body_temp_path $TMP/client_body;
  proxy_temp_path $TMP/proxy;
  fastcgi_temp_path $TMP/fastcgi;
  uwsgi_temp_path $TMP/uwsgi;
  scgi_temp_path $TMP/scgi;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location / { default_type text/plain; return 200 '$(cat "$TMP/hello.body")'; }
  }
}
CONF
  "${SERVER_CPU[@]}" "$NGINX" -c "$TMP/nginx.conf" -p "$TMP" -e "$TMP/nginx-error.log" 2> "$TMP/nginx.err" &
  NGINX_PID=$!; PIDS+=("$NGINX_PID")
  wait_for "http://127.0.0.1:$NGINX_PORT/hello" || { cat "$TMP/nginx.err" >&2; exit 1; }
  NGINX_WORKER=$(pgrep -P "$NGINX_PID" | head -1 || true)
  echo
  echo "Against nginx (one worker, same body), wrk -t1 -c16 -d${DURATION}s, best of $ROUNDS rounds, after the run above:"

  for mode in keep-alive close; do
    for round in $(seq 1 "$ROUNDS"); do
      if [ $((round % 2)) = 1 ]; then order="stubserver nginx"; else order="nginx stubserver"; fi
      for name in $order; do
        if [ "$name" = stubserver ]; then run_wrk stubserver "$mode" "$CLI/hello" "$CLI_PID"
        else run_wrk nginx "$mode" "http://127.0.0.1:$NGINX_PORT/hello" "${NGINX_WORKER:-$NGINX_PID}"; fi
      done
    done
  done
fi

# --- Summary -------------------------------------------------------------------------------------------------
echo
python3 - "$TMP/windows" "$TMP/results" "$MAX_RATIO" "$STRICT" "$(journal_total "$CLI")" "$(awk '/^VmHWM:/ { print $2 }' "/proc/$CLI_PID/status")" <<'PY'
import sys
windows = [l.split() for l in open(sys.argv[1]) if l.strip()]
results = [l.split() for l in open(sys.argv[2]) if l.strip()]
max_ratio, strict = float(sys.argv[3]), sys.argv[4] == "1"
failed = 0
for name in ("cli", "in-process"):
    rows = [r for r in windows if r[0] == name]
    if not rows:
        continue
    cpu = [float(r[4]) for r in rows]
    errors = sum(int(r[7]) for r in rows)
    first, last, worst = cpu[0], cpu[-1], max(cpu)
    median = sorted(cpu)[len(cpu) // 2]
    worst_at = cpu.index(worst) + 1
    # The gate is robust to one noisy window: growth that comes from traffic lasts several windows.
    mid3 = lambda xs: sorted(xs)[len(xs) // 2]
    tail_ratio = mid3(cpu[-3:]) / mid3(cpu[:3])
    second = sorted(cpu)[-2] if len(cpu) > 1 else worst
    peak_ratio = second / median
    ok = tail_ratio <= max_ratio and peak_ratio <= max_ratio and errors == 0
    failed += not ok
    print(f"{name:<11} CPU us/req first {first:.2f}, last {last:.2f} ({last / first:.2f}x), median {median:.2f}, "
          f"costliest window {worst_at} {worst:.2f} ({worst / median:.2f}x the median); errors {errors}")
    print(f"{'':<11} gate: last 3 windows / first 3 {tail_ratio:.2f}x, second-costliest / median {peak_ratio:.2f}x; "
          f"limit {max_ratio:g}x  {'PASS' if ok else 'FAIL'}")
probes = {r[1]: float(r[2]) for r in results if r[0] == "probe"}
if "idle" in probes and "listing" in probes:
    print(f"/hello p99 idle {probes['idle']:.3f} ms, while the journal is listed {probes['listing']:.3f} ms")
best = {}
for r in results:
    if r[0] in ("stubserver", "nginx"):
        key = (r[0], r[1])
        if key not in best or float(r[2]) > best[key][0]:
            best[key] = (float(r[2]), float(r[3]), int(r[4]), float(r[5]))
for mode, target in (("keep-alive", 1.3), ("close", 1.0)):
    if ("stubserver", mode) in best and ("nginx", mode) in best:
        s, n = best[("stubserver", mode)], best[("nginx", mode)]
        ratio = s[0] / n[0] if n[0] else 0
        print(f"{mode:<11} stubserver {s[0]:.0f} req/s ({s[3]:.1f} us/req), nginx {n[0]:.0f} req/s ({n[3]:.1f} us/req): "
              f"{ratio:.2f}x  target >= {target}x  {'PASS' if ratio >= target else 'FAIL'}")
print(f"CLI journal entries at the end: {sys.argv[5]}; CLI peak RSS (VmHWM): {int(sys.argv[6] or 0) / 1024:.1f} MB")
sys.exit(1 if strict and failed else 0)
PY
