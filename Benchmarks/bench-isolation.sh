#!/usr/bin/env bash
# Isolated servers and virtual hosts (issue 23): 50 isolated servers and 20 virtual hosts cost nothing per request
# beyond the one that answers, and what an idle isolated server costs in memory, in one run.
#
# Three stubserver (release) processes serve the demo stubs (Stubs/), GET /hello:
#   plain     `--stubs Stubs --port 0`: the baseline
#   isolated  the same with `--max-servers 64`, then 50 isolated servers (POST /__admin/servers, no `stubs`: each
#             loads the parent's folder), each asked GET /hello once to settle; measured on one isolated
#             server's port (iso-child) and on the parent's (iso-parent)
#   vhosts    the same with 20 `--host-alias hN.example.com`, ports read from GET /__admin/hosts; measured on
#             one virtual host's port (vhost) and on the primary port (vh-primary). Skipped, with a line saying
#             so, when `stubserver --help` has no --host-alias.
# The cases take turns under wrk -t1 -c16 -d3s (keep-alive), servers on CPU 0 and wrk on CPU 1 (taskset), for 2
# rounds; the table shows each case's best round: req/s, its ratio to the plain server's, and the server process's
# CPU time per request (isolated servers run in their parent's process, so that is the parent's).
# Memory: the isolated parent's VmRSS, threads (and their nice values) and open descriptors (/proc/PID) before
# and after starting the 50, the difference divided by 50 being one idle isolated server's cost.
# It is a measurement: it exits 0 whatever the ratios, unless --check is given (then 1 when a case's req/s ratio
# is under --min-ratio, default 0.5, or a request failed).
#
# Usage: Benchmarks/bench-isolation.sh [--check|--strict] [--min-ratio R] [--servers N] [--hosts N]
#                                      [--no-build] [--rounds N] [--duration SECONDS] [--scratch-path DIR] [--no-pin]
# STUBSERVER_BIN=path runs that binary instead of the one built here.
# Needs: swift, wrk, curl, python3. Takes about 45 s after the build with the defaults.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-isolation
BENCH_HELP_END=24
# shellcheck source=Benchmarks/lib.sh
. "$ROOT/Benchmarks/lib.sh"

STRICT=0
BUILD=1
ROUNDS=2
DURATION=3
PIN=1
SCRATCH=""
SERVERS=50
HOSTS=20
# The bound is loose on purpose: it catches per-request work that grows with the number of servers or hosts
# (a scan of every listener, table or journal: 50 of them would cost several times a single server's work, far
# under half its req/s), not a slower machine. Both sides are measured in the same run, taking turns, best
# round of each, so a shared, busy machine moves them together; the same server measured twice differs by much
# less than 2x even then.
MIN_RATIO=0.5
while [ $# -gt 0 ]; do
  case "$1" in
    --check) STRICT=1; shift ;;
    --min-ratio) MIN_RATIO=$2; shift 2 ;;
    --servers) SERVERS=$2; shift 2 ;;
    --hosts) HOSTS=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
[ "$SERVERS" -ge 1 ] && [ "$SERVERS" -le 1000 ] || { echo "bench-isolation: --servers takes 1 to 1000" >&2; exit 2; }
[ "$HOSTS" -ge 1 ] && [ "$HOSTS" -le 1000 ] || { echo "bench-isolation: --hosts takes 1 to 1000" >&2; exit 2; }
bench_require wrk curl python3

if [ -n "${STUBSERVER_BIN:-}" ]; then
  STUBSERVER=$STUBSERVER_BIN
else
  bench_build stubserver
  STUBSERVER="$(bench_bin_path)/stubserver"
fi
[ -x "$STUBSERVER" ] || { echo "bench-isolation: $STUBSERVER not built (run without --no-build)" >&2; exit 2; }
bench_pin_cpus "$PIN"

TMP=$(mktemp -d /tmp/bench-isolation.XXXXXX)
PIDS=()
cleanup() {
  # Only the servers this script started, by PID (isolated servers live in their parent's process).
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
: > "$TMP/results"

status_field() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
fd_count() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
# nice_counts PID: how many of the process's threads run at each nice value, e.g. "2 at nice 0, 52 at nice 10"
# (Linux's nice is per thread, and a thread starts with its creator's).
nice_counts() {
  for stat in /proc/"$1"/task/*/stat; do sed 's/.*) //' "$stat" 2>/dev/null | awk '{ print $17 }'; done \
    | sort -n | uniq -c | awk '{ printf "%s%s at nice %s", (NR > 1 ? ", " : ""), $1, $2 }'
}

# start_server NAME ARG...: starts stubserver ARG... on the demo stubs and a free port, sets NAME_PID and NAME_URL.
start_server() {
  local name=$1 pid url
  shift
  "${SERVER_CPU[@]}" "$STUBSERVER" --stubs "$ROOT/Stubs" --port 0 "$@" > "$TMP/$name.out" 2> "$TMP/$name.err" &
  pid=$!; PIDS+=("$pid")
  url=$(listening_url "$TMP/$name.out")
  [ -n "$url" ] || { echo "bench-isolation: stubserver ($name) did not start:" >&2; cat "$TMP/$name.err" >&2; exit 1; }
  url=${url%/}
  wait_for "$url/hello"
  eval "${name^^}_PID=$pid; ${name^^}_URL=$url"
}

# same_answer NAME URL: exits 1 unless URL/hello answers what the plain server does, from the same stub.
same_answer() {
  curl -s --max-time 10 -D "$TMP/$1.headers" -o "$TMP/$1.body" "$2/hello" || true
  if ! cmp -s "$TMP/plain.body" "$TMP/$1.body" \
    || ! grep -qi '^Matched-Stub-Id: 5d1a3c1e-7b0e-4a51-9a39-6f3c2b8e0007' "$TMP/$1.headers"; then
    echo "bench-isolation: $1 ($2) does not answer GET /hello from the demo's hello stub:" >&2
    cat "$TMP/$1.headers" "$TMP/$1.body" >&2; exit 1
  fi
}

# --- The plain server (the baseline) --------------------------------------------------------------------------
start_server plain
curl -s --max-time 10 -D "$TMP/plain.headers" -o "$TMP/plain.body" "$PLAIN_URL/hello"
same_answer plain "$PLAIN_URL"
CASES=(plain)
URLS=("$PLAIN_URL/hello")
CASE_PIDS=("$PLAIN_PID")

# --- Isolated servers -----------------------------------------------------------------------------------------
start_server isolated --max-servers $((SERVERS + 14))
same_answer isolated "$ISOLATED_URL"
sleep 1
RSS_BEFORE=$(status_field "$ISOLATED_PID" VmRSS); THREADS_BEFORE=$(status_field "$ISOLATED_PID" Threads)
FDS_BEFORE=$(fd_count "$ISOLATED_PID"); NICE_BEFORE=$(nice_counts "$ISOLATED_PID")
# Creates the servers one after another, then asks each GET /hello once; every call has a 10 s deadline.
python3 - "$ISOLATED_URL" "$SERVERS" > "$TMP/children" <<'PY'
import json, sys, urllib.request
base, count = sys.argv[1], int(sys.argv[2])
urls = []
for i in range(count):
    request = urllib.request.Request(base + "/__admin/servers", method="POST",
                                     data=json.dumps({"name": f"bench-{i}"}).encode())
    with urllib.request.urlopen(request, timeout=10) as answer:
        urls.append(json.load(answer)["baseUrl"])
for url in urls:
    with urllib.request.urlopen(url + "/hello", timeout=10) as answer:
        answer.read()
print("\n".join(urls))
PY
[ "$(wc -l < "$TMP/children")" -eq "$SERVERS" ] || { echo "bench-isolation: $SERVERS isolated servers not started" >&2; exit 1; }
sleep 1
RSS_AFTER=$(status_field "$ISOLATED_PID" VmRSS); THREADS_AFTER=$(status_field "$ISOLATED_PID" Threads)
FDS_AFTER=$(fd_count "$ISOLATED_PID"); NICE_AFTER=$(nice_counts "$ISOLATED_PID")
# The middle one: neither the first nor the last started.
CHILD_URL=$(sed -n "$(((SERVERS + 1) / 2))p" "$TMP/children")
same_answer iso-child "$CHILD_URL"
echo "Isolated: $SERVERS servers started by pid $ISOLATED_PID ($ISOLATED_URL); measured: $CHILD_URL"
CASES+=(iso-child iso-parent)
URLS+=("$CHILD_URL/hello" "$ISOLATED_URL/hello")
CASE_PIDS+=("$ISOLATED_PID" "$ISOLATED_PID")

# --- Virtual hosts ------------------------------------------------------------------------------------------------
if "$STUBSERVER" --help 2>&1 | grep -q -- '--host-alias'; then
  ALIASES=()
  for i in $(seq 1 "$HOSTS"); do ALIASES+=(--host-alias "h$i.example.com"); done
  start_server vhosts "${ALIASES[@]}"
  # The middle host's port, and the primary's, from GET /__admin/hosts.
  read -r VHOST_URL PRIMARY_URL COUNT < <(curl -s --max-time 10 "$VHOSTS_URL/__admin/hosts" | python3 -c '
import json, sys
hosts = json.load(sys.stdin)["hosts"]
named = [h for h in hosts if h.get("name")]
primary = [h for h in hosts if not h.get("name")]
middle = "h%d.example.com" % ((int(sys.argv[1]) + 1) // 2)
print(next((h["baseUrl"] for h in named if h["name"] == middle), "none"),
      primary[0]["baseUrl"] if primary else "none", len(named))' "$HOSTS")
  [ "$COUNT" = "$HOSTS" ] && [ "$VHOST_URL" != none ] && [ "$PRIMARY_URL" != none ] \
    || { echo "bench-isolation: GET /__admin/hosts does not list $HOSTS virtual hosts and the primary port" >&2; exit 1; }
  VHOST_URL=${VHOST_URL%/}; PRIMARY_URL=${PRIMARY_URL%/}
  same_answer vhost "$VHOST_URL"
  same_answer vh-primary "$PRIMARY_URL"
  echo "Virtual hosts: $HOSTS on pid $VHOSTS_PID; measured: h$(((HOSTS + 1) / 2)).example.com on $VHOST_URL, primary $PRIMARY_URL"
  CASES+=(vhost vh-primary)
  URLS+=("$VHOST_URL/hello" "$PRIMARY_URL/hello")
  CASE_PIDS+=("$VHOSTS_PID" "$VHOSTS_PID")
else
  echo "SKIPPED: this build has no --host-alias"
fi
echo "Body: $(wc -c < "$TMP/plain.body") bytes from each.  wrk: -t1 -c16 -d${DURATION}s keep-alive${SERVER_CPU:+, servers on CPU 0, wrk on CPU 1}"

# --- wrk ------------------------------------------------------------------------------------------------------
bench_warm_up "${URLS[@]}"
for round in $(seq 1 "$ROUNDS"); do
  order=$(seq 0 $((${#CASES[@]} - 1)))
  [ $((round % 2)) = 0 ] && order=$(echo "$order" | tac)
  for i in $order; do run_wrk "${CASES[$i]}" keep-alive "${URLS[$i]}" "${CASE_PIDS[$i]}"; done
done
for pid in "${PIDS[@]}"; do
  kill -0 "$pid" 2>/dev/null || { echo "bench-isolation: stubserver $pid is no longer running" >&2; exit 1; }
done

# --- Table ----------------------------------------------------------------------------------------------------
echo
python3 - "$TMP/results" "$STRICT" "$MIN_RATIO" "$SERVERS" "$HOSTS" \
  "$RSS_BEFORE" "$RSS_AFTER" "$THREADS_BEFORE" "$THREADS_AFTER" "$FDS_BEFORE" "$FDS_AFTER" "${CASES[*]}" "$NICE_BEFORE" "$NICE_AFTER" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
strict, min_ratio, servers, hosts = sys.argv[2] == "1", float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rss_before, rss_after, threads_before, threads_after, fds_before, fds_after = map(int, sys.argv[6:12])
cases, nice_before, nice_after = sys.argv[12].split(), sys.argv[13], sys.argv[14]
best = {}
for name, mode, rps, p99, errors, cpu in rows:
    rps, errors, cpu = float(rps), int(errors), float(cpu)
    old = best.get(name)
    best[name] = (max(rps, old[0]), old[1] + errors, min(cpu, old[2])) if old else (rps, errors, cpu)
about = {"plain": "one server (baseline)",
         "iso-child": f"one of {servers} isolated servers",
         "iso-parent": f"their parent, {servers} isolated servers beside it",
         "vhost": f"one of {hosts} virtual hosts' ports",
         "vh-primary": f"the primary port, {hosts} virtual hosts beside it"}
base = best.get("plain", (0.0, 0, float("nan")))
failed = []
print(f"{'case':<12}{'req/s':>9}{'ratio':>8}{'CPU us/req':>12}{'CPU ratio':>11}{'errors':>8}   "
      "(best round of each; ratios to plain's)")
for name in cases:
    rps, errors, cpu = best.get(name, (0.0, 0, float("nan")))
    ratio = rps / base[0] if base[0] else 0.0
    if errors or (name != "plain" and ratio < min_ratio):
        failed.append(name)
    cpu_ratio = cpu / base[2] if base[2] > 0 else float("nan")
    print(f"{name:<12}{rps:>9.0f}{ratio:>8.2f}{cpu:>12.1f}{cpu_ratio:>11.2f}{errors:>8}   {about[name]}")
if "vhost" not in cases:
    print("vhost       SKIPPED: this build has no --host-alias")
per_kb = (rss_after - rss_before) / servers
print(f"Memory: the isolated parent's RSS {rss_before / 1024:.1f} MB before, {rss_after / 1024:.1f} MB after "
      f"{servers} isolated servers: {per_kb / 1024:.2f} MB ({per_kb:.0f} KiB) per idle isolated server; threads "
      f"{threads_before} -> {threads_after} ({(threads_after - threads_before) / servers:+.2f} per server); "
      f"open descriptors {fds_before} -> {fds_after} ({(fds_after - fds_before) / servers:+.2f} per server)")
print(f"Threads by priority: {nice_before} before; {nice_after} after (a low req/s ratio at an even CPU ratio "
      "means the server waited for a core, not that it worked more)")
verdict = "FAIL: " + ", ".join(failed) if failed else "PASS"
print(f"Check: every ratio >= {min_ratio:g} and no failed request: {verdict}")
sys.exit(1 if strict and failed else 0)
PY
