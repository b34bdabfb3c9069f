#!/usr/bin/env bash
# Engine benchmark: the StubHTTP engine (Benchmarks/engine-bench) against nginx on this machine, in one run.
#
# Both servers answer every request with the same ~300-byte JSON body (engine-bench --print-body). nginx runs one
# worker with the access log off. For each server, wrk (-t1 -c16 -d5s --latency) measures:
#   keep-alive   16 persistent connections
#   close        the same with `Connection: close`, so every request opens a new connection
# The servers take turns (engine then nginx, then nginx then engine, ...) and the best of the rounds counts.
# The server is pinned to CPU 0 and wrk to CPU 1 when the machine has 2 or more (taskset).
#
# Prints requests/s, the ratio to nginx, p99 latency, each server's CPU time per request (steadier than req/s on a
# busy machine) and the engine's peak RSS (VmHWM), with PASS/FAIL against:
#   keep-alive >= 0.9x nginx, close >= 0.8x nginx, engine peak RSS <= 20 MB.
# It is a measurement: it exits 0 even when a target is missed, unless --strict is given (then 1).
#
# Usage: Benchmarks/bench-engine.sh [--strict] [--no-build] [--rounds N] [--duration SECONDS]
#                                   [--scratch-path DIR] [--threads N] [--no-pin]
# ENGINE_BIN=path runs that binary instead of the one built here (same command line as engine-bench).
# Needs: swift, nginx (nginx-light), wrk, curl, python3. Takes about 60 s after the build with the defaults.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-engine
BENCH_HELP_END=19
# shellcheck source=Benchmarks/lib.sh
. "$ROOT/Benchmarks/lib.sh"

STRICT=0
BUILD=1
ROUNDS=2
DURATION=5
THREADS=1
PIN=1
SCRATCH=""
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) THREADS=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
bench_require wrk curl python3 "$NGINX"

bench_build engine-bench
if [ -n "${ENGINE_BIN:-}" ]; then
  ENGINE=$ENGINE_BIN   # another binary with engine-bench's command line (--print-body, --port, --threads)
else
  ENGINE="$(bench_bin_path)/engine-bench"
fi
[ -x "$ENGINE" ] || { echo "bench-engine: $ENGINE not built (run without --no-build)" >&2; exit 2; }

bench_pin_cpus "$PIN"

TMP=$(mktemp -d /tmp/bench-engine.XXXXXX)
ENGINE_PID=""; NGINX_PID=""
cleanup() {
  # Only the two servers this script started, by PID.
  [ -n "$ENGINE_PID" ] && kill "$ENGINE_PID" 2>/dev/null && wait "$ENGINE_PID" 2>/dev/null || true
  [ -n "$NGINX_PID" ] && kill -QUIT "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- The engine -----------------------------------------------------------------------------------------------
"$ENGINE" --print-body > "$TMP/body.json"
if grep -q "[\$'\\\\]" "$TMP/body.json"; then
  echo "bench-engine: the body must not contain \$, ' or \\ (nginx's return would change it)" >&2; exit 2
fi
"${SERVER_CPU[@]}" "$ENGINE" --port 0 --threads "$THREADS" > "$TMP/engine.out" 2> "$TMP/engine.err" &
ENGINE_PID=$!
ENGINE_URL=$(listening_url "$TMP/engine.out")
[ -n "$ENGINE_URL" ] || { echo "bench-engine: engine-bench did not start:" >&2; cat "$TMP/engine.err" >&2; exit 1; }
ENGINE_URL=${ENGINE_URL%/}/

# --- nginx: one worker, no access log, the same body ----------------------------------------------------------
NGINX_PORT=$(free_port)
cat > "$TMP/nginx.conf" <<EOF
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
    location / {
      default_type application/json;
      return 200 '$(cat "$TMP/body.json")';
    }
  }
}
EOF
"${SERVER_CPU[@]}" "$NGINX" -c "$TMP/nginx.conf" -p "$TMP" -e "$TMP/nginx-error.log" 2> "$TMP/nginx.err" &
NGINX_PID=$!
NGINX_URL="http://127.0.0.1:$NGINX_PORT/"
wait_for "$ENGINE_URL"
wait_for "$NGINX_URL" || { cat "$TMP/nginx.err" "$TMP/nginx-error.log" >&2 2>/dev/null; exit 1; }

# Same bytes from both?
curl -s -D "$TMP/engine.headers" -o "$TMP/engine.body" "$ENGINE_URL"
curl -s -D "$TMP/nginx.headers" -o "$TMP/nginx.body" "$NGINX_URL"
if ! cmp -s "$TMP/engine.body" "$TMP/nginx.body"; then
  echo "bench-engine: the two servers answer different bodies:" >&2
  head -c 400 "$TMP/engine.body" >&2; echo >&2; head -c 400 "$TMP/nginx.body" >&2; echo >&2
  exit 1
fi
NGINX_WORKER=$(pgrep -P "$NGINX_PID" | head -1 || true)
[ -n "$NGINX_WORKER" ] || { echo "bench-engine: no nginx worker process under pid $NGINX_PID" >&2; exit 1; }
echo "Body: $(wc -c < "$TMP/engine.body") bytes from both. Response header bytes: engine $(wc -c < "$TMP/engine.headers"), nginx $(wc -c < "$TMP/nginx.headers")."
echo "Engine: $ENGINE_URL (pid $ENGINE_PID, --threads $THREADS)   nginx: $NGINX_URL (pid $NGINX_PID)   wrk: -t1 -c16 -d${DURATION}s${SERVER_CPU:+, server on CPU 0, wrk on CPU 1}"

# --- wrk ------------------------------------------------------------------------------------------------------
bench_warm_up "$ENGINE_URL" "$NGINX_URL"

: > "$TMP/results"
for mode in keep-alive close; do
  for round in $(seq 1 "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then order="engine nginx"; else order="nginx engine"; fi
    for name in $order; do
      if [ "$name" = engine ]; then run_wrk engine "$mode" "$ENGINE_URL" "$ENGINE_PID"
      else run_wrk nginx "$mode" "$NGINX_URL" "$NGINX_WORKER"; fi
    done
  done
done

ENGINE_HWM_KB=$(awk '/^VmHWM:/ { print $2 }' "/proc/$ENGINE_PID/status" 2>/dev/null || echo 0)
NGINX_HWM_KB=$( [ -n "$NGINX_WORKER" ] && awk '/^VmHWM:/ { print $2 }' "/proc/$NGINX_WORKER/status" 2>/dev/null || echo 0)
kill -0 "$ENGINE_PID" 2>/dev/null || echo "bench-engine: engine-bench is no longer running (see $TMP/engine.err)" >&2

# --- Table ----------------------------------------------------------------------------------------------------
echo
if python3 - "$TMP/results" "$ENGINE_HWM_KB" "$NGINX_HWM_KB" "$STRICT" > "$TMP/table" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
engine_kb, nginx_kb, strict = int(sys.argv[2] or 0), int(sys.argv[3] or 0), sys.argv[4] == "1"
best = {}
for name, mode, rps, p99, errors, cpu in rows:
    key = (name, mode)
    if key not in best or float(rps) > best[key][0]:
        best[key] = (float(rps), float(p99), int(errors), float(cpu))
targets = {"keep-alive": 0.9, "close": 0.8}
missed = 0
print(f"{'server':<8}{'mode':<12}{'req/s':>10}{'x nginx':>9}{'p99 ms':>9}{'errors':>8}{'CPU us/req':>12}  target")
for mode in ("keep-alive", "close"):
    nginx = best.get(("nginx", mode), (0.0, float("nan"), 0, float("nan")))
    for name in ("engine", "nginx"):
        rps, p99, errors, cpu = best.get((name, mode), (0.0, float("nan"), 0, float("nan")))
        ratio = rps / nginx[0] if nginx[0] else 0.0
        verdict = ""
        if name == "engine":
            ok = ratio >= targets[mode] and errors == 0
            missed += not ok
            verdict = f">= {targets[mode]:.1f}x  {'PASS' if ok else 'FAIL'}"
        print(f"{name:<8}{mode:<12}{rps:>10.0f}{ratio:>8.2f}x{p99:>9.3f}{errors:>8}{cpu:>12.1f}  {verdict}")
mb = engine_kb / 1024
ok = 0 < engine_kb <= 20 * 1024
missed += not ok
print(f"engine peak RSS (VmHWM) {mb:.1f} MB (nginx worker {nginx_kb / 1024:.1f} MB)  target <= 20 MB  {'PASS' if ok else 'FAIL'}")
print(f"{'all targets met' if missed == 0 else f'{missed} target(s) missed'}")
sys.exit(1 if strict and missed else 0)
PY
then status=0; else status=$?; fi
cat "$TMP/table"
exit $status
