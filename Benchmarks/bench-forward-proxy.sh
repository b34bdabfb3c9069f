#!/usr/bin/env bash
# Forward-proxy benchmark, two measurements in one run on the same machine, against the release `stubserver` with
# default flags (only --port 0, --stubs Stubs, --https-port 0 and a fresh --ca-dir are added):
#   cost     the server's CPU time per request (utime + stime from /proc/PID/stat) for GET /users/octocat, REQUESTS
#            requests on one keep-alive connection each way, by a Python http.client driver: direct over plain HTTP;
#            in absolute form through the proxy (http://api.github.com/users/octocat); direct over HTTPS (the
#            --https-port); through a CONNECT tunnel whose TLS the server ends (https://api.github.com/...). Prints
#            each (best of ROUNDS) and the ratios proxied / direct for each scheme.
#   flat     HOSTS tunnels to distinct hosts (h1.bench.test, h2.bench.test, ...; default 1,024, four times the
#            certificate cache of 256), each a new connection, CONNECT and one request, in WINDOWS windows: the
#            server's CPU ms per new host and its resident memory after each window; then the ratio last window /
#            first window of both (flat ≈ 1: the cache is bounded, so neither grows with the hosts seen).
# It is a measurement: it exits 0 whatever the figures. --check exits 1 when the flat CPU or memory ratio exceeds
# --max-ratio (default 2.0) or a request failed.
#
# Usage: Benchmarks/bench-forward-proxy.sh [--check] [--max-ratio R] [--requests N] [--hosts N] [--windows N]
#                                          [--rounds N] [--no-build] [--no-pin] [--scratch-path DIR]
# STUBSERVER_BIN runs that binary instead of the one built here. Linux only (the tunnels' TLS is OpenSSL's).
# Needs: swift, curl, python3. Takes about a minute after the build.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-forward-proxy
BENCH_HELP_END=20
# shellcheck source=Benchmarks/lib.sh
. "$ROOT/Benchmarks/lib.sh"

CHECK=0
MAX_RATIO=2.0
REQUESTS=5000
HOSTS=1024
WINDOWS=8
ROUNDS=2
BUILD=1
PIN=1
SCRATCH=""
DURATION=0
while [ $# -gt 0 ]; do
  case "$1" in
    --check) CHECK=1; shift ;;
    --max-ratio) MAX_RATIO=$2; shift 2 ;;
    --requests) REQUESTS=$2; shift 2 ;;
    --hosts) HOSTS=$2; shift 2 ;;
    --windows) WINDOWS=$2; shift 2 ;;
    *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
  esac
done
bench_require curl python3
bench_build stubserver
STUBSERVER=${STUBSERVER_BIN:-"$(bench_bin_path)/stubserver"}
[ -x "$STUBSERVER" ] || { echo "$BENCH_NAME: $STUBSERVER not built (run without --no-build)" >&2; exit 2; }
bench_pin_cpus "$PIN"

TMP=$(mktemp -d /tmp/bench-forward-proxy.XXXXXX)
PID=""
# shellcheck disable=SC2317  # invoked by the trap
cleanup() {
  # Only the server this script started, by PID.
  if [ -n "$PID" ] && kill "$PID" 2>/dev/null; then wait "$PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"${SERVER_CPU[@]}" "$STUBSERVER" --stubs "$ROOT/Stubs" --port 0 --https-port 0 --ca-dir "$TMP/ca" \
  > "$TMP/server.out" 2> "$TMP/server.err" &
PID=$!
URL=$(listening_url "$TMP/server.out")
[ -n "$URL" ] || { echo "$BENCH_NAME: stubserver did not start:" >&2; cat "$TMP/server.err" >&2; exit 1; }
HTTPS_PORT=$(sed -n 's|^Listening on https://[^:]*:\([0-9]*\).*|\1|p' "$TMP/server.out" | head -1)
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); server pid $PID, $URL, https port $HTTPS_PORT"

set +e
"${CLIENT_CPU[@]}" timeout 600 python3 - "$URL" "$HTTPS_PORT" "$TMP/ca/ca.crt" "$PID" "$(getconf CLK_TCK)" \
  "$REQUESTS" "$HOSTS" "$WINDOWS" "$ROUNDS" "$CHECK" "$MAX_RATIO" <<'PY'
import http.client, ssl, sys, urllib.parse
url, https_port, cafile, pid, hz, requests, hosts, windows, rounds, check, max_ratio = sys.argv[1:12]
https_port, pid, hz = int(https_port), int(pid), int(hz)
requests, hosts, windows, rounds = int(requests), int(hosts), int(windows), int(rounds)
check, max_ratio = check == "1", float(max_ratio)
port = urllib.parse.urlparse(url).port
context = ssl.create_default_context(cafile=cafile)
failures = []

def ticks():
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])

def rss_kib():
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))

def connection(mode):
    if mode == "http direct":
        return http.client.HTTPConnection("127.0.0.1", port, timeout=30), "/users/octocat"
    if mode == "http proxied":
        return http.client.HTTPConnection("127.0.0.1", port, timeout=30), "http://api.github.com/users/octocat"
    if mode == "https direct":
        return http.client.HTTPSConnection("localhost", https_port, context=context, timeout=30), "/users/octocat"
    tunnelled = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=30)
    tunnelled.set_tunnel("api.github.com", 443)
    return tunnelled, "/users/octocat"

def cost(mode):
    conn, target = connection(mode)
    for _ in range(50):  # warm-up: the connection, the handshake, the certificate
        conn.request("GET", target); conn.getresponse().read()
    before = ticks()
    for _ in range(requests):
        conn.request("GET", target)
        response = conn.getresponse()
        body = response.read()
        if response.status != 200 or b"octocat" not in body:
            failures.append(f"{mode}: {response.status}")
            break
    spent = (ticks() - before) * 1e6 / hz / requests
    conn.close()
    return spent

modes = ["http direct", "http proxied", "https direct", "https tunnelled"]
best = {}
for _ in range(rounds):
    for mode in modes:
        best[mode] = min(best.get(mode, float("inf")), cost(mode))
print(f"cost: GET /users/octocat, {requests} requests on one keep-alive connection per way, best of {rounds}")
for mode in modes:
    print(f"  {mode:<16} {best[mode]:7.1f} us server CPU per request")
print(f"  ratio proxied / direct: http {best['http proxied'] / best['http direct']:.2f}, "
      f"https {best['https tunnelled'] / best['https direct']:.2f}")

print(f"flat: {hosts} tunnels to distinct hosts (certificate cache 256), {windows} windows")
print(f"  {'window':>6} {'hosts':>6} {'CPU ms/host':>12} {'RSS MiB':>8}")
per_window = hosts // windows
cpu, rss = [], []
number = 0
for w in range(1, windows + 1):
    before = ticks()
    for _ in range(per_window):
        number += 1
        conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=30)
        conn.set_tunnel(f"h{number}.bench.test", 443)
        conn.request("GET", "/users/octocat")
        response = conn.getresponse(); response.read()
        if response.status != 200:
            failures.append(f"host {number}: {response.status}")
        conn.close()
    cpu.append((ticks() - before) * 1e3 / hz / per_window)
    rss.append(rss_kib() / 1024)
    print(f"  {w:>6} {number:>6} {cpu[-1]:>12.2f} {rss[-1]:>8.1f}")
cpu_ratio, rss_ratio = cpu[-1] / cpu[0], rss[-1] / rss[0]
print(f"  ratio last window / first window: CPU {cpu_ratio:.2f}, RSS {rss_ratio:.2f} (flat is about 1)")
if failures:
    print(f"  failures: {failures[:5]}")
if check:
    if failures or not (cpu_ratio <= max_ratio and rss_ratio <= max_ratio):
        print(f"FAIL: a ratio above {max_ratio}, or failures", file=sys.stderr)
        sys.exit(1)
    print(f"  check: CPU {cpu_ratio:.2f} and RSS {rss_ratio:.2f} <= {max_ratio}, every request answered 200")
PY
status=$?
set -e
if [ "$status" != 0 ] && [ "$CHECK" = 1 ]; then exit 1; fi
[ "$status" = 0 ] || echo "$BENCH_NAME: the driver exited $status (timeout 600 s or an error above)"
