# Shell functions shared by the Benchmarks/*.sh scripts. Source it, then set:
#   BENCH_NAME   the script's name, for messages (e.g. bench-engine)
#   ROOT         the package directory (bench_build, bench_bin_path)
#   TMP          a scratch directory; run_wrk appends to $TMP/results
#   DURATION     wrk's duration in seconds
# and call `bench_pin_cpus 1` (or 0) to fill SERVER_CPU / CLIENT_CPU.
# shellcheck shell=bash

# bench_pin_cpus PIN: with PIN=1 on 2+ CPUs and taskset installed, servers go on CPU 0 and wrk on CPU 1.
bench_pin_cpus() {
  SERVER_CPU=(); CLIENT_CPU=()
  if [ "$1" = 1 ] && command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    SERVER_CPU=(taskset -c 0); CLIENT_CPU=(taskset -c 1)
  fi
}

# bench_require TOOL...: exits 2 naming the first tool that is missing.
bench_require() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$BENCH_NAME: '$tool' not found (apt-get install -y nginx-light wrk curl python3)" >&2; exit 2; }
  done
}

# bench_option ARG...: reads the option in $1, its value from $2, if it is one that bench-dynamic, bench-engine
# and bench-routes all take, setting:
#   --strict STRICT=1   --no-build BUILD=0   --no-pin PIN=0
#   --rounds N ROUNDS   --duration SECONDS DURATION   --scratch-path DIR SCRATCH
# and BENCH_SHIFT to the number of arguments it read (1 or 2): call `bench_option "$@"; shift "$BENCH_SHIFT"`.
# -h/--help prints lines 2 to BENCH_HELP_END of the script without their `# ` and exits 0; any other option
# exits 2 naming it.
bench_option() {
  BENCH_SHIFT=1
  case "$1" in
    --strict) STRICT=1 ;;
    --no-build) BUILD=0 ;;
    --no-pin) PIN=0 ;;
    --rounds) ROUNDS=$2; BENCH_SHIFT=2 ;;
    --duration) DURATION=$2; BENCH_SHIFT=2 ;;
    --scratch-path) SCRATCH=$2; BENCH_SHIFT=2 ;;
    -h|--help) sed -n "2,${BENCH_HELP_END}p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "$BENCH_NAME: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
}

# bench_swift_build ARG...: `swift build -c release ARG...` in ROOT, in the SCRATCH directory when one is set.
bench_swift_build() {
  local scratch=()
  [ -n "$SCRATCH" ] && scratch=(--scratch-path "$SCRATCH")
  (cd "$ROOT" && swift build -c release "$@" "${scratch[@]}")
}

# bench_build PRODUCT: with BUILD=1, builds the release PRODUCT and prints the last lines of the build's output.
bench_build() {
  if [ "$BUILD" = 1 ]; then
    echo "Building $1 (release)..."
    bench_swift_build --product "$1" 2>&1 | tail -3
  fi
}

# bench_bin_path: prints the directory of the release build's products.
bench_bin_path() { bench_swift_build --show-bin-path; }

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_for() { # URL: up to 10 s
  for _ in $(seq 1 100); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done
  echo "$BENCH_NAME: nothing answers at $1" >&2; return 1
}

# listening_url STDOUT-FILE: waits up to 10 s for a `Listening on http://…` line in the file and prints the URL.
listening_url() {
  for _ in $(seq 1 100); do grep -q '^Listening on ' "$1" && break; sleep 0.1; done
  sed -n 's/^Listening on \(http:[^ ]*\).*/\1/p' "$1" | head -1
}

# cpu_ticks PID: user + system CPU time of the process so far, in clock ticks.
cpu_ticks() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }' || echo 0; }

# run_wrk NAME MODE URL PID: appends "NAME MODE req/s p99-ms errors cpu-us-per-request" to $TMP/results
# and prints it. MODE is keep-alive or close (`Connection: close` on every request).
# The server's own CPU time per request (from /proc/PID/stat) holds up better than req/s when other
# processes compete for the CPUs.
run_wrk() {
  local name=$1 mode=$2 url=$3 pid=$4 out="$TMP/wrk-$1-$2-$RANDOM.txt"
  local header=() before after
  [ "$mode" = close ] && header=(-H 'Connection: close')
  before=$(cpu_ticks "$pid")
  "${CLIENT_CPU[@]}" wrk -t1 -c16 -d"${DURATION}s" --latency "${header[@]}" "$url" > "$out" 2>&1 || true
  after=$(cpu_ticks "$pid")
  python3 - "$out" "$name" "$mode" "$((after - before))" "$(getconf CLK_TCK)" >> "$TMP/results" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
ticks, hz = int(sys.argv[4]), int(sys.argv[5])
total = re.search(r"(\d+) requests in", text)
cpu_us = ticks * 1e6 / hz / int(total.group(1)) if total and int(total.group(1)) else float("nan")
rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
errors = 0
m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
if m: errors += sum(int(g) for g in m.groups())
m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
if m: errors += int(m.group(1))
print(sys.argv[2], sys.argv[3], rps.group(1) if rps else "0",
      "%.3f" % (float(p99.group(1)) * scale[p99.group(2)]) if p99 else "nan", errors, "%.1f" % cpu_us)
PY
  tail -1 "$TMP/results" | awk '{ printf "  %-6s %-10s %10.0f req/s  p99 %8.3f ms  errors %s  server CPU %s us/req\n", $1, $2, $3, $4, $5, $6 }'
}

# bench_warm_up URL...: warns about the load (load_note), then runs wrk for 1 s on each URL in turn.
bench_warm_up() {
  local url
  load_note
  echo "Warming up..."
  for url in "$@"; do
    "${CLIENT_CPU[@]}" wrk -t1 -c16 -d1s "$url" > /dev/null 2>&1 || true
  done
}

# load_note: warns when other processes keep the CPUs busy.
load_note() {
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  if awk -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(l > n * 0.5) }'; then
    echo "Note: load average $load on $(nproc) CPUs: other processes compete, so req/s ratios are noisy;"
    echo "      the server CPU time per request (last column) is the steadier comparison."
  fi
}
