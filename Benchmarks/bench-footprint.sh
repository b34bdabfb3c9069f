#!/usr/bin/env bash
# Footprint of the stubserver executable: the Slim build (the Docker image's: FoundationEssentials only) against the
# default build (full Foundation: ICU, URLSession, libcurl) and against the engine alone (engine-bench, no Foundation),
# in one run on this machine.
#
# For each binary (release, static Swift runtime, stripped, as the image builds it; the Slim one fully static):
#   size        bytes of the binary, and the shared libraries it loads (ldd)
#   cold start  exec until GET /__admin/health answers (engine-bench: until any GET answers), best of 5
#   cold start  exec until the first correct 200 for GET /hello ("Hello, stubserver"), polled without sleeping
#    vs nginx   (Benchmarks/footprint/coldstart.py), best of 10, for Slim, full and nginx (one worker, the same
#               answer) in the same run: issue 17's target is Slim <= 1.2x nginx; skipped without nginx
#   idle RSS    VmRSS after it answered once and 2 s idle
#   peak RSS    VmHWM after wrk -t1 -c16 -d5s keep-alive on GET /hello (engine-bench: its fixed body)
# The stubservers serve the demo stubs (Stubs/). Prints a table with ratios to the engine alone, and PASS/FAIL for the
# Slim build against issue 12's targets: idle RSS <= 12 MB, peak RSS <= 20 MB. It is a measurement: it exits 0 even when
# a target is missed, unless --strict is given (then 1).
#
# Usage: Benchmarks/bench-footprint.sh [--strict] [--no-build] [--scratch-path DIR] [--duration SECONDS] [--no-pin]
# SLIM_BIN, FULL_BIN, ENGINE_BIN: binaries to measure instead of building them (FULL_BIN= skips the default build).
# Needs: swift, wrk, curl, python3. Takes about 1 minute after the builds.
set -euo pipefail

STRICT=0
BUILD=1
DURATION=5
PIN=1
SCRATCH=/tmp/stubserver-bench-footprint
while [ $# -gt 0 ]; do
  case "$1" in
    --strict) STRICT=1 ;;
    --no-build) BUILD=0 ;;
    --scratch-path) SCRATCH=$2; shift ;;
    --duration) DURATION=$2; shift ;;
    --no-pin) PIN=0 ;;
    *) echo "usage: $0 [--strict] [--no-build] [--scratch-path DIR] [--duration SECONDS] [--no-pin]" >&2; exit 2 ;;
  esac
  shift
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-footprint
# shellcheck source=Benchmarks/lib.sh
source "$ROOT/Benchmarks/lib.sh"
bench_require swift wrk curl python3
bench_pin_cpus "$PIN"
TMP=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT

# build NAME TRAITS PRODUCT: release build in its own scratch directory (the traits change every module).
build() {
  local scratch="$SCRATCH/$1" args=(-c release --static-swift-stdlib --product "$3" -Xlinker -s --scratch-path "$SCRATCH/$1")
  [ -z "$2" ] || args+=(--traits "$2")
  # The Slim executable is linked fully static, as docker/Dockerfile links it.
  [ "$2" != Slim ] || args+=(-Xswiftc -static-executable)
  if [ "$BUILD" = 1 ]; then
    echo "Building $3 ($1, release)..." >&2
    (cd "$ROOT" && swift build "${args[@]}" 2>&1 | grep -E 'error|Compiling|Build' | tail -2 >&2)
  fi
  echo "$(cd "$ROOT" && swift build "${args[@]}" --show-bin-path)/$3"
}
SLIM=${SLIM_BIN:-$(build slim Slim stubserver)}
FULL=${FULL_BIN-$(build full "" stubserver)}
ENGINE=${ENGINE_BIN:-$(build full "" engine-bench)}

# start NAME BINARY ARGS…: starts it on a free port, prints "PID URL COLD-START-MS".
start() {
  local name=$1 bin=$2; shift 2
  local t0 url pid
  t0=$(date +%s%N)
  "${SERVER_CPU[@]}" "$bin" "$@" > "$TMP/$name.out" 2> "$TMP/$name.err" &
  pid=$!
  url=$(listening_url "$TMP/$name.out")
  [ -n "$url" ] || { echo "$BENCH_NAME: $name did not start:" >&2; cat "$TMP/$name.err" >&2; exit 1; }
  local probe=$url/__admin/health
  [ "$name" = engine ] && probe=$url/
  for _ in $(seq 1 1000); do curl -s -o /dev/null "$probe" && break; sleep 0.005; done
  echo "$pid $url $(( ($(date +%s%N) - t0) / 1000000 ))"
}

kb() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/status"; }

measure() { # NAME BINARY ARGS…
  local name=$1 bin=$2; shift 2
  local best=999999 pid url ms
  for _ in 1 2 3 4 5; do
    read -r pid url ms < <(start "$name" "$bin" "$@")
    [ "$ms" -lt "$best" ] && best=$ms
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
  read -r pid url ms < <(start "$name" "$bin" "$@")
  PIDS+=("$pid")
  local path=/hello
  [ "$name" = engine ] && path=/
  curl -s -o /dev/null "$url$path"
  sleep 2
  local idle; idle=$(kb "$pid" VmRSS)
  "${CLIENT_CPU[@]}" wrk -t1 -c16 -d"${DURATION}s" "$url$path" > "$TMP/$name.wrk" 2>&1
  local peak; peak=$(kb "$pid" VmHWM)
  local rps; rps=$(awk '/^Requests\/sec:/ { print $2 }' "$TMP/$name.wrk")
  local libs; libs=$( (ldd "$bin" 2>&1 || true) | awk '/not a dynamic/ { print "(static)"; next } $1 !~ /vdso/ { print $1 }' | sed 's|.*/||' | tr '\n' ' ')
  echo "$name $(wc -c < "$bin") $best $idle $peak ${rps:-0} $libs" >> "$TMP/results"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

measure engine "$ENGINE" --port 0
measure slim "$SLIM" --stubs "$ROOT/Stubs" --port 0
[ -z "$FULL" ] || measure full "$FULL" --stubs "$ROOT/Stubs" --port 0

# Spawn → first correct 200, against nginx in the same run.
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
COLD=$ROOT/Benchmarks/footprint/coldstart.py
if [ -x "$NGINX" ]; then
  NGINX_PORT=$(free_port)
  mkdir -p "$TMP/nginx"
  cat > "$TMP/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $TMP/nginx/nginx.pid;
error_log $TMP/nginx/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path $TMP/nginx/body; proxy_temp_path $TMP/nginx/proxy; fastcgi_temp_path $TMP/nginx/fastcgi;
  uwsgi_temp_path $TMP/nginx/uwsgi; scgi_temp_path $TMP/nginx/scgi;
  server { listen 127.0.0.1:$NGINX_PORT; location / { default_type text/plain; return 200 'Hello, stubserver'; } }
}
CONF
  nginx_ms=$(python3 "$COLD" 10 /hello "Hello, stubserver" --port "$NGINX_PORT" -- "${SERVER_CPU[@]}" "$NGINX" -c "$TMP/nginx/nginx.conf" -p "$TMP/nginx" -e "$TMP/nginx/error.log")
  slim_ms=$(python3 "$COLD" 10 /hello "Hello, stubserver" -- "${SERVER_CPU[@]}" "$SLIM" --stubs "$ROOT/Stubs" --port 0)
  full_ms=""
  [ -z "$FULL" ] || full_ms=$(python3 "$COLD" 10 /hello "Hello, stubserver" -- "${SERVER_CPU[@]}" "$FULL" --stubs "$ROOT/Stubs" --port 0)
  echo "cold $nginx_ms $slim_ms ${full_ms:-0}" >> "$TMP/results"
else
  echo "$BENCH_NAME: nginx not found: the cold start against nginx is skipped (apt-get install -y nginx-light)"
fi

python3 - "$TMP/results" "$STRICT" <<'EOF'
import sys
rows = {}
cold_vs_nginx = None
for line in open(sys.argv[1]):
    if line.startswith("cold "):
        cold_vs_nginx = [float(x) for x in line.split()[1:]]
        continue
    name, size, cold, idle, peak, rps, *libs = line.split()
    rows[name] = dict(size=int(size), cold=int(cold), idle=int(idle), peak=int(peak), rps=float(rps), libs=libs)
engine = rows["engine"]
print(f"{'binary':<8} {'size MB':>8} {'cold ms':>8} {'idle RSS MB':>12} {'x engine':>9} {'peak RSS MB':>12} {'x engine':>9} {'req/s':>9}  shared libraries")
for name in ("engine", "slim", "full"):
    if name not in rows: continue
    r = rows[name]
    print(f"{name:<8} {r['size'] / 1e6:>8.1f} {r['cold']:>8} {r['idle'] / 1024:>12.1f} {r['idle'] / engine['idle']:>8.2f}x"
          f" {r['peak'] / 1024:>12.1f} {r['peak'] / engine['peak']:>8.2f}x {r['rps']:>9.0f}  {' '.join(r['libs'])}")
slim = rows["slim"]
idle_ok, peak_ok = slim["idle"] <= 12 * 1024, slim["peak"] <= 20 * 1024
print(f"slim idle RSS {slim['idle'] / 1024:.1f} MB  target <= 12 MB  {'PASS' if idle_ok else 'FAIL'}")
print(f"slim peak RSS {slim['peak'] / 1024:.1f} MB  target <= 20 MB  {'PASS' if peak_ok else 'FAIL'}")
cold_ok = True
if cold_vs_nginx:
    nginx_ms, slim_ms, full_ms = cold_vs_nginx
    cold_ok = slim_ms <= 1.2 * nginx_ms
    full_note = f", full {full_ms:.1f} ms ({full_ms / nginx_ms:.2f}x)" if full_ms else ""
    print(f"cold start to the first correct 200, best of 10: nginx {nginx_ms:.1f} ms, slim {slim_ms:.1f} ms "
          f"({slim_ms / nginx_ms:.2f}x){full_note}  target slim <= 1.2x nginx  {'PASS' if cold_ok else 'FAIL'}")
sys.exit(1 if sys.argv[2] == "1" and not (idle_ok and peak_ok and cold_ok) else 0)
EOF
