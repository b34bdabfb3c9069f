#!/usr/bin/env bash
# Hostile-client benchmark (issue 8): the release `stubserver` under the attacks of issue 8, one fresh server each.
#
#   baseline         no attack
#   idle-flood       5,000 connections that never send a byte, held 12 s (over the default limit, 4,096)
#   idle-over-limit  2,000 of them against --max-connections 1000
#   slowloris        300 connections sending a request head one byte per second, 12 s
#   half-sent-heads  issue 18 item 14: the server under `ulimit -n 256`, 300 connections that each send half a request
#                    head at once and then nothing, held 12 s (more than its descriptors: the oldest heads give way)
#   regex            two clients looping on GET /aaaa…a! against a stub with urlPattern "/(a+)+$", 12 s
#   admin-journal    10,000 POSTs of 10 KB first, then a client looping on GET /__admin/requests, 12 s
#   big-body         30 POSTs of 60 MiB each
#   unread-stderr    stderr is a pipe nobody reads; 5,000 unmatched requests (near-miss reports), then SIGTERM
#   template-bomb    issue 18 item 2: two clients looping on GET /bomb/s/…/s (1,000 path segments) against three
#                    nested {{#each request.pathSegments}}, 12 s (each answered 500 at the template step limit)
#   template-output  issue 18 item 6: 10 connections asking a 10 MiB templated response and never reading, while a
#                    client loops POSTing a 38 MiB JSON array to {{#each}} (500 at the 16 MiB output limit), 12 s
#   json-body        issue 18: 4 POSTs of a 38 MiB JSON array at a matchesJsonPath "$[0]" stub (over the JSON-matching limit)
#   json-body-3MiB   30 POSTs of a 3 MiB JSON array at it (parsed, off the event loop)
#   near-miss        2,000 stubs with 500-character URLs; two clients looping on an unmatched 500-character URL, 12 s
#   admin-writes     3,000 POST /__admin/mappings one by one, then the same 3,000 as one import; the note gives the
#                    mean ms per POST at 0 and at ~3,000 stubs, and the import's seconds
#   proxy-loop       (issue 18 #7) a stub proxying to the server itself; 4 clients looping through it, 12 s
#   body-file        (issue 18 #3) a 1 GiB body file (sparse): 10 connections reading it 64 KiB every 100 ms and one
#                    client downloading it whole in a loop, 12 s; the note gives how long the server took to start
#                    with that file in its stubs (every row's server loads it)
#   silent-upstream  (issue 18 #7) 100 requests kept waiting on an upstream that never answers (proxy timeout 5 s), 12 s;
#                    the note gives the server's CPU time during the attack (a busy wait shows as ~12 s)
#   silent-https-upstream  the same with an https:// upstream (Linux: libcurl's multi interface on a thread of ours;
#                    URLSession's transport there spun a core while waiting)
#
# For each: /hello p50/p99 during the attack (Python http.client, a new connection per request, 5 s timeout, at most
# 300 requests in 10 s; failed or timed-out requests are counted as errors), the server's peak RSS (VmHWM) and whether
# it recovered: its open descriptors back to the baseline (/proc/PID/fd) within 15 s of the attack ending and /hello
# answering. The unread-stderr row also gives how long SIGTERM took to stop the process.
# It is a measurement: it exits 0 whatever it finds.
#
# Usage: Benchmarks/bench-hostile.sh [--no-build] [--scratch-path DIR] [--only NAME]
# --only NAME runs that attack alone (e.g. --only big-body).
# STUBSERVER_BIN=path runs that binary instead of the release build. Linux only (/proc). Needs: swift, curl, python3.
# Takes about 2-3 minutes after the build. Loopback only; every attack is bounded in count and time.
set -euo pipefail

BUILD=1
SCRATCH=""
ONLY=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --scratch-path) SCRATCH=$2; shift ;;
    --only) ONLY=$2; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-hostile: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-hostile
# shellcheck source=Benchmarks/lib.sh
. "$ROOT/Benchmarks/lib.sh"
bench_require curl python3
HOSTILE="$ROOT/Benchmarks/hostile/hostile.py"

SCRATCH_ARGS=()
[ -n "$SCRATCH" ] && SCRATCH_ARGS=(--scratch-path "$SCRATCH")
if [ -n "${STUBSERVER_BIN:-}" ]; then
  BIN=$STUBSERVER_BIN
else
  if [ "$BUILD" = 1 ]; then
    echo "Building stubserver (release)..."
    (cd "$ROOT" && swift build -c release --product stubserver "${SCRATCH_ARGS[@]}" 2>&1 | tail -2)
  fi
  BIN="$(cd "$ROOT" && swift build -c release --show-bin-path "${SCRATCH_ARGS[@]}")/stubserver"
fi
[ -x "$BIN" ] || { echo "bench-hostile: no binary at $BIN" >&2; exit 2; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-hostile.XXXXXX")
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT

mkdir -p "$TMP/stubs/mappings"
cat > "$TMP/stubs/mappings/hello.json" <<'JSON'
{"request": {"method": "GET", "url": "/hello"}, "response": {"status": 200, "body": "Hello, stubserver"}}
JSON
cat > "$TMP/stubs/mappings/regex.json" <<'JSON'
{"request": {"method": "GET", "urlPattern": "/(a+)+$"}, "response": {"status": 200, "body": "all a"}}
JSON
cat > "$TMP/stubs/mappings/upload.json" <<'JSON'
{"request": {"method": "POST", "urlPattern": "/(upload|fill)"}, "response": {"status": 201}}
JSON
cat > "$TMP/stubs/mappings/bomb.json" <<'JSON'
{"name": "segments bomb", "request": {"method": "GET", "urlPathPattern": "/bomb/.*"},
 "response": {"status": 200, "transformers": ["response-template"],
  "body": "{{#each request.pathSegments}}{{#each request.pathSegments}}{{#each request.pathSegments}}x{{/each}}{{/each}}{{/each}}"}}
JSON
cat > "$TMP/stubs/mappings/each.json" <<'JSON'
{"name": "each over the body", "request": {"method": "POST", "urlPath": "/each"},
 "response": {"status": 200, "transformers": ["response-template"],
  "body": "{{#each (jsonPath request.body '$[*]')}}<{{this}}>{{/each}}"}}
JSON
cat > "$TMP/stubs/mappings/big.json" <<'JSON'
{"name": "big template", "request": {"method": "GET", "urlPathPattern": "/big/.*"},
 "response": {"status": 200, "transformers": ["response-template"], "bodyFileName": "big.tmpl"}}
JSON
mkdir -p "$TMP/stubs/__files"
cat > "$TMP/stubs/mappings/huge.json" <<'JSON'
{"request": {"method": "GET", "url": "/huge"}, "response": {"status": 200, "bodyFileName": "huge.bin"}}
JSON
truncate -s 1G "$TMP/stubs/__files/huge.bin"
# 64 KiB of text per path segment: 160 segments render 10 MiB.
{ printf '{{#each request.pathSegments}}'; head -c 65536 /dev/zero | tr '\0' 'x'; printf '{{/each}}'; } > "$TMP/stubs/__files/big.tmpl"

cat > "$TMP/stubs/mappings/json.json" <<'JSON'
{"request": {"method": "POST", "url": "/json", "bodyPatterns": [{"matchesJsonPath": "$[0]"}]}, "response": {"status": 200}}
JSON
# The near-miss row's stubs: /hello and 2,000 stubs with 500-character URLs.
mkdir -p "$TMP/nearstubs/mappings"
cp "$TMP/stubs/mappings/hello.json" "$TMP/nearstubs/mappings/"
python3 "$HOSTILE" longstubs 2000 > "$TMP/nearstubs/mappings/long.json"

fd_count() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
threads() { awk '/^Threads:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo "?"; }
cpu_ticks() { awk '{ sub(/.*\) /, ""); split($0, f, " "); print f[12] + f[13] }' "/proc/$1/stat" 2>/dev/null || echo 0; }
peak_rss_mb() { awk '/^VmHWM:/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo "?"; }

# start_server NAME [stderr-target]: starts the binary on a free port; sets SPID and PORT.
start_server() {
  local name=$1 err=${2:-$TMP/$1.err}
  # shellcheck disable=SC2086  # SERVER_ARGS is words
  "$BIN" --stubs "${STUBS:-$TMP/stubs}" --port 0 ${SERVER_ARGS:-} > "$TMP/$name.out" 2> "$err" &
  SPID=$!
  PIDS+=("$SPID")
  local url started
  started=$(date +%s%N)
  url=$(listening_url "$TMP/$name.out")
  [ -n "$url" ] || { echo "bench-hostile: $name: the server did not start" >&2; cat "$TMP/$name.out" "$err" >&2 || true; exit 1; }
  PORT=${url##*:}
  wait_for "$url/hello"
  START_MS=$(( ($(date +%s%N) - started) / 1000000 ))
}

# stop_server: SIGTERM, up to 15 s; prints the seconds it took or "still running".
stop_server() {
  local start end
  start=$(date +%s.%N)
  kill -TERM "$SPID" 2>/dev/null || true
  for _ in $(seq 1 150); do kill -0 "$SPID" 2>/dev/null || break; sleep 0.1; done
  end=$(date +%s.%N)
  if kill -0 "$SPID" 2>/dev/null; then kill -9 "$SPID" 2>/dev/null || true; echo "still running after 15 s (killed)"; return; fi
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f s", e - s }'
}

# recovered BASELINE: waits up to 15 s for the descriptor count to return to BASELINE (+1 slack) and /hello to answer.
recovered() {
  local base=$1 now
  for _ in $(seq 1 150); do
    now=$(fd_count "$SPID")
    if [ "$now" -le $((base + 1)) ] && curl -s -m 5 -o /dev/null "http://127.0.0.1:$PORT/hello"; then
      echo "yes (fds $now, baseline $base)"; return
    fi
    sleep 0.1
  done
  echo "NO (fds $now after 15 s, baseline $base)"
}

printf '%-14s %10s %10s %9s %7s %9s  %s\n' attack "p50 ms" "p99 ms" answered errors "peak RSS" recovered
row() { # NAME PROBE-OUTPUT PEAK RECOVERED [NOTE]
  local p50 p99 ok errors
  read -r p50 p99 ok errors <<< "$2"
  printf '%-14s %10s %10s %9s %7s %7s MB  %s%s\n' "$1" "$p50" "$p99" "$ok" "$errors" "$3" "$4" "${5:+ — $5}"
}

# attack NAME PRE-COMMAND ATTACK-ARGS...: one fresh server, an optional preparation, the attack in the
# background, the probe meanwhile, then peak RSS and recovery.
attack() {
  local name=$1 pre=$2; shift 2
  [ -z "$ONLY" ] || [ "$ONLY" = "$name" ] || return 0
  start_server "$name"
  local base probe_out peak apid idle_threads busy_threads
  # shellcheck disable=SC2086  # PRE is words: a hostile.py command with @PORT for the port
  [ -n "$pre" ] && { timeout 120 python3 "$HOSTILE" ${pre//@PORT/$PORT} || true; }
  base=$(fd_count "$SPID")
  idle_threads=$(threads "$SPID")
  if [ $# -gt 0 ]; then
    timeout 150 python3 "$HOSTILE" "$1" "$PORT" "${@:2}" > /dev/null 2>&1 &
    apid=$!
    PIDS+=("$apid")
    sleep 1
  fi
  local cpu0 cpu
  cpu0=$(cpu_ticks "$SPID")
  probe_out=$(python3 "$HOSTILE" probe "$PORT" 300 10)
  busy_threads=$(threads "$SPID")
  [ -n "${apid:-}" ] && { wait "$apid" 2>/dev/null || true; }
  cpu=$(awk -v t="$(( $(cpu_ticks "$SPID") - cpu0 ))" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }')
  peak=$(peak_rss_mb "$SPID")
  row "$name" "$probe_out" "$peak" "$(recovered "$base")" "threads $idle_threads idle, $busy_threads attacked; CPU ${cpu} s; started in ${START_MS} ms"
  stop_server > /dev/null
}

attack baseline ""
attack idle-flood "" idle 5000 12
SERVER_ARGS="--max-connections 1000" attack idle-over-limit "" idle 2000 12
attack slowloris "" slowloris 300 12
# half-sent-heads: the same binary under ulimit -n 256 (exec keeps the PID the row measures).
printf '#!/bin/sh\nulimit -n 256 && exec "%s" "$@"\n' "$BIN" > "$TMP/nofile-256.sh"
chmod +x "$TMP/nofile-256.sh"
BIN="$TMP/nofile-256.sh" attack half-sent-heads "" halfsent 300 12
attack regex "" regex 2 12
attack admin-journal "fill @PORT 10000 10240" admin 12
attack big-body "" bigbody 30 60
attack template-bomb "" segbomb 2 12
attack template-output "" bigtemplate 10 38 12
attack json-body "" jsonbody 4 38
attack json-body-3MiB "" jsonbody 30 3
STUBS="$TMP/nearstubs" attack near-miss "" nearmiss 2 12
attack proxy-loop "" proxyloop 4 12
attack body-file "" bodyfile 10 12
SERVER_ARGS="--proxy-timeout 5000" attack silent-upstream "" silent 100 12
SERVER_ARGS="--proxy-timeout 5000" attack silent-https-upstream "" silenttls 100 12

# admin-writes: the writes are the attack; their own timings go in the note.
if [ -z "$ONLY" ] || [ "$ONLY" = admin-writes ]; then
start_server admin-writes
base=$(fd_count "$SPID")
idle_threads=$(threads "$SPID")
timeout 300 python3 "$HOSTILE" adminwrites "$PORT" 3000 > "$TMP/adminwrites.out" 2>&1 &
apid=$!
PIDS+=("$apid")
sleep 1
probe_out=$(python3 "$HOSTILE" probe "$PORT" 300 10)
busy_threads=$(threads "$SPID")
wait "$apid" 2>/dev/null || true
read -r first last imported < "$TMP/adminwrites.out" || true
peak=$(peak_rss_mb "$SPID")
row admin-writes "$probe_out" "$peak" "$(recovered "$base")" \
  "POST ${first:-?} ms at 0 stubs, ${last:-?} ms at ~3,000; import of 3,000 ${imported:-?} s; threads $idle_threads idle, $busy_threads attacked"
stop_server > /dev/null
fi

# unread-stderr: stderr is a FIFO whose reader (sleep) never reads.
if [ -z "$ONLY" ] || [ "$ONLY" = unread-stderr ]; then
mkfifo "$TMP/stderr.fifo"
sleep 600 < "$TMP/stderr.fifo" &
HOLDER=$!
PIDS+=("$HOLDER")
start_server unread-stderr "$TMP/stderr.fifo"
base=$(fd_count "$SPID")
timeout 150 python3 "$HOSTILE" unmatched "$PORT" 5000 60 > /dev/null 2>&1 &
apid=$!
PIDS+=("$apid")
sleep 1
probe_out=$(python3 "$HOSTILE" probe "$PORT" 300 10)
wait "$apid" 2>/dev/null || true
peak=$(peak_rss_mb "$SPID")
rec=$(recovered "$base")
stopped=$(stop_server)
row unread-stderr "$probe_out" "$peak" "$rec" "SIGTERM with stderr blocked: stopped in $stopped"
kill "$HOLDER" 2>/dev/null || true
fi
load_note
