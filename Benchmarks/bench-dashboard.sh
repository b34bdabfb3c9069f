#!/usr/bin/env bash
# The dashboard under load (issue 25): what its live feed costs the release stubserver while RATE requests a second
# (default 1,000, every 5th one unmatched) arrive for DURATION seconds, against the same load without it, in one run:
#   no-journal  --no-request-journal: the server without its journal (the reference for what the journal costs)
#   journal     the default server, no dashboard open
#   feed        the default server with its live feed open and read as it comes (curl -N: a page that keeps up)
#   stalled     the default server with a live feed that stops reading (it must drop, not buffer)
#   browser     the default server with the dashboard open in headless Chromium (when chromium and Python's
#               websockets are here: STUBSERVER_PYTHON_WEBSOCKETS, else python3)
# Per phase: the server's CPU time (utime + stime, /proc/PID/stat) per 1,000 requests, the load's p50 and p99, and
# the server's RSS after it. ROUNDS rounds with the phases interleaved; medians reported. The feed's cost is
# feed − journal, the journal's journal − no-journal. Each server first takes one phase of load unmeasured (the
# journal full, as in a long run).
# The stalled phase starts once the page is behind (its socket buffers full: Benchmarks/dashboard/fill_page.py), so
# it measures what a page that stays stalled costs per request; the fill, bounded by the kernel's buffers, is printed.
#
# It is a measurement: it exits 0 whatever the figures, unless --check is given (then 1 when a request failed, when
# the feed's, the stalled feed's or the page's extra CPU per request exceeds the journal's own plus 15% of the journal
# phase (the spread between rounds of one phase on a 2-core machine), when a stalled page never fell behind,
# or when the stalled phase's RSS is more than 16 MiB above the journal phase's). --check-bounds checks all but the CPU
# (for CI, where other work shares the machine: what a page holds and frees, not how fast).
#
# With taskset and 2+ CPUs the servers run on CPU 0 and everything else on CPU 1 (--no-pin: anywhere).
# Usage: Benchmarks/bench-dashboard.sh [--check | --check-bounds] [--rate N] [--duration SECONDS] [--rounds N] [--no-build]
#        [--no-pin] [--scratch-path DIR]
# STUBSERVER_BIN=path runs that binary instead of the one built here.
# Needs: swift, python3, curl. Takes about (2 + 4 x ROUNDS, +1 per round with a browser) x DURATION s after the build.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-dashboard
BENCH_HELP_END=22
# shellcheck source=Benchmarks/lib.sh
. "$ROOT/Benchmarks/lib.sh"

CHECK=0; RATE=1000; DURATION=10; ROUNDS=3; BUILD=1; SCRATCH=; STRICT=0; PIN=1
while [ $# -gt 0 ]; do
  case "$1" in
    --check) CHECK=1; shift ;;
    --check-bounds) CHECK=2; shift ;;
    --rate) RATE=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
bench_require python3 curl
bench_pin_cpus "$PIN"  # the servers on CPU 0, the load, the feed readers and Chromium on CPU 1
bench_build stubserver
STUBSERVER=${STUBSERVER_BIN:-$(bench_swift_build --show-bin-path)/stubserver}
PYTHON_WS=${STUBSERVER_PYTHON_WEBSOCKETS:-python3}
BROWSER=0
if command -v chromium >/dev/null && "$PYTHON_WS" -c 'import websockets.sync.client' 2>/dev/null; then BROWSER=1; fi

TMP=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -n "${KEEP_ROWS:-}" ] && cp "$TMP/rows" "$KEEP_ROWS"; rm -rf "$TMP"
}
trap cleanup EXIT

# start_server NAME ARG...: starts the binary on a free port; sets PORT_<NAME> and PID_<NAME>.
start_server() {
  local name=$1; shift
  "${SERVER_CPU[@]}" "$STUBSERVER" --stubs "$ROOT/Stubs" --port 0 --log-unmatched none "$@" > "$TMP/$name.out" 2> "$TMP/$name.err" &
  local pid=$!
  PIDS+=("$pid")
  for _ in $(seq 1 100); do grep -q '^Listening on ' "$TMP/$name.out" && break; sleep 0.1; done
  local port
  port=$(sed -n 's/^Listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$TMP/$name.out")
  [ -n "$port" ] || { echo "$BENCH_NAME: $name did not start:" >&2; cat "$TMP/$name.err" >&2; exit 1; }
  printf -v "PORT_$name" '%s' "$port"
  printf -v "PID_$name" '%s' "$pid"
}

# cpu_ns PID: the process's CPU time so far (utime + stime of /proc/PID/stat, threads that ended included), in
# nanoseconds, to the clock tick.
TICK_NS=$((1000000000 / $(getconf CLK_TCK)))
cpu_ns() { awk -v tick="$TICK_NS" '{printf "%.0f", ($14 + $15) * tick}' "/proc/$1/stat"; }
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

# phase LABEL SERVER: the paced load against SERVER, its CPU and RSS appended to $TMP/rows.
phase() {
  local label=$1 name=$2 port pid before after load
  port=PORT_$name; pid=PID_$name
  before=$(cpu_ns "${!pid}")
  load=$("${CLIENT_CPU[@]}" python3 "$ROOT/Benchmarks/dashboard/paced_load.py" 127.0.0.1 "${!port}" "$RATE" "$DURATION")
  after=$(cpu_ns "${!pid}")
  echo "$label $((after - before)) $(rss_kib "${!pid}") $load" >> "$TMP/rows"
  echo "  $label: $(((after - before) / 1000000)) ms of CPU, RSS $(rss_kib "${!pid}") KiB, $load"
}

start_server nojournal --no-request-journal
start_server journal
echo "Warming up each server with one phase of load (the journal fills to its bound)..."
"${CLIENT_CPU[@]}" python3 "$ROOT/Benchmarks/dashboard/paced_load.py" 127.0.0.1 "$PORT_nojournal" "$RATE" "$DURATION" > /dev/null
"${CLIENT_CPU[@]}" python3 "$ROOT/Benchmarks/dashboard/paced_load.py" 127.0.0.1 "$PORT_journal" "$RATE" "$DURATION" > /dev/null

FILL_FAILED=0
FEED_URL="http://127.0.0.1:$PORT_journal/__admin/stubserver/requests/live"
for round in $(seq 1 "$ROUNDS"); do
  echo "Round $round of $ROUNDS ($RATE requests/s for $DURATION s per phase):"
  phase no-journal nojournal
  phase journal journal
  "${CLIENT_CPU[@]}" curl -sN "$FEED_URL" > "$TMP/feed.txt" &
  reader=$!; PIDS+=("$reader")
  sleep 0.5
  phase feed journal
  kill "$reader" 2>/dev/null || true; wait "$reader" 2>/dev/null || true
  echo "    the feed sent $(grep -c '^event: request' "$TMP/feed.txt" || true) request events, dropped counts: $(grep -A1 '^event: dropped' "$TMP/feed.txt" | grep -o '"count":[0-9]*' | cut -d: -f2 | paste -sd+ - || true)"
  "${CLIENT_CPU[@]}" python3 "$ROOT/Benchmarks/dashboard/stalled_page.py" 127.0.0.1 "$PORT_journal" > "$TMP/stalled.out" &
  stalled=$!; PIDS+=("$stalled")
  for _ in $(seq 1 50); do grep -q stalled "$TMP/stalled.out" && break; sleep 0.1; done
  # Until its socket buffers are full (the kernel's, several MiB) a stalled page takes what is sent; the phase
  # measures what it costs after that, for as long as it stays stalled.
  before=$(cpu_ns "$PID_journal")
  fill=$("${CLIENT_CPU[@]}" python3 "$ROOT/Benchmarks/dashboard/fill_page.py" 127.0.0.1 "$PORT_journal" 60)
  echo "    filling the stalled page's buffers: $fill, $((($(cpu_ns "$PID_journal") - before) / 1000000)) ms of CPU"
  case "$fill" in *'"behind": 1'*) ;; *) FILL_FAILED=1 ;; esac
  phase stalled journal
  kill "$stalled" 2>/dev/null || true; wait "$stalled" 2>/dev/null || true
  if [ "$BROWSER" = 1 ]; then
    "${CLIENT_CPU[@]}" "$PYTHON_WS" "$ROOT/Benchmarks/dashboard/browser_page.py" "http://127.0.0.1:$PORT_journal/__admin/dashboard" > "$TMP/browser.out" 2>&1 &
    page=$!; PIDS+=("$page")
    for _ in $(seq 1 600); do grep -q '^open' "$TMP/browser.out" && break; sleep 0.1; done
    phase browser journal
    kill -TERM "$page" 2>/dev/null || true; wait "$page" 2>/dev/null || true
    echo "    the page showed $(sed -n 's/^rows //p' "$TMP/browser.out") rows (it keeps at most 2,000)"
  fi
  sleep 1
done
OPEN=$(curl -s "http://127.0.0.1:$PORT_journal/__admin/stubserver/requests/feeds")
echo "Feeds open at the end (every page gone): $OPEN"

python3 - "$TMP/rows" "$CHECK" "$OPEN" "$FILL_FAILED" <<'PY'
import json, statistics, sys
rows, check, open_feeds = sys.argv[1], sys.argv[2] != "0", json.loads(sys.argv[3])["open"]
check_cpu = sys.argv[2] == "1"
fill_failed = sys.argv[4] == "1"
phases = {}
for line in open(rows):
    label, nanoseconds, rss, load = line.split(" ", 3)
    load = json.loads(load)
    phases.setdefault(label, []).append((int(nanoseconds) / 1e6 / load["sent"] * 1000, int(rss), load))
def med(label, f): return statistics.median(f(row) for row in phases[label])
print("\nphase        CPU ms per 1,000 requests   p50 ms   p99 ms   RSS MiB   requests/s   errors")
for label in phases:
    print(f"{label:<12} {med(label, lambda r: r[0]):>14.1f}            {med(label, lambda r: r[2]['p50_ms']):>6.2f}   "
          f"{med(label, lambda r: r[2]['p99_ms']):>6.2f}   {med(label, lambda r: r[1]) / 1024:>7.1f}   "
          f"{med(label, lambda r: r[2]['rate']):>10.0f}   {sum(r[2]['errors'] for r in phases[label])}")
base, journal = med("no-journal", lambda r: r[0]), med("journal", lambda r: r[0])
journal_cost = journal - base
print(f"\nThe journal costs {journal_cost:.1f} ms of CPU per 1,000 requests ({journal / base:.2f}x the server without it).")
failures = []
for label in [l for l in ("feed", "stalled", "browser") if l in phases]:
    cost = med(label, lambda r: r[0]) - journal
    print(f"With {label:<8} the server spends {cost:+.1f} ms per 1,000 requests more than with none "
          f"({med(label, lambda r: r[0]) / journal:.2f}x the journal phase).")
    if check_cpu and cost > max(journal_cost, 0) + 0.15 * journal:
        failures.append(f"{label} costs {cost:.1f} ms per 1,000 requests, more than the journal's {journal_cost:.1f}")
growth = (med("stalled", lambda r: r[1]) - med("journal", lambda r: r[1])) / 1024
print(f"A stalled feed's server RSS: {growth:+.1f} MiB over the journal phase.")
if growth > 16: failures.append(f"the stalled feed's server grew {growth:.1f} MiB")
if fill_failed: failures.append("a stalled page was not behind after 60 s of filling")
if any(r[2]["errors"] for rows in phases.values() for r in rows): failures.append("requests failed")
if open_feeds != 0: failures.append(f"{open_feeds} feeds still open after every page left")
if check and failures:
    print("bench-dashboard: FAIL: " + "; ".join(failures))
    sys.exit(1)
print("bench-dashboard: " + ("PASS" if check else "done"))
PY
