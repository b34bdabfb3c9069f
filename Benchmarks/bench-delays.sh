#!/usr/bin/env bash
# Delayed responses hold no thread (issue 9): COUNT requests (default 1,000) sent at once to a stub delayed
# 1,000 ms, against the release `stubserver`. Prints the seconds until every answer arrived (about 1 s when the
# delays run together; COUNT s one after another), the ratio to the 1 s delay, how many were answered, the
# earliest first byte (never before the delay) and the server's most threads meanwhile.
# Linux only (/proc). Needs: swift, curl, python3. Loopback only; bounded to 60 s.
#
# Usage: Benchmarks/bench-delays.sh [--count N] [--no-build] [--scratch-path DIR]
set -euo pipefail

COUNT=1000
BUILD=1
SCRATCH=""
while [ $# -gt 0 ]; do
  case "$1" in
    --count) COUNT=$2; shift ;;
    --no-build) BUILD=0 ;;
    --scratch-path) SCRATCH=$2; shift ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-delays: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-delays
# shellcheck source=Benchmarks/lib.sh
. "$ROOT/Benchmarks/lib.sh"
bench_require curl python3
bench_build stubserver
BIN="${STUBSERVER_BIN:-$(bench_bin_path)/stubserver}"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-delays.XXXXXX")
SPID=""
cleanup() { [ -n "$SPID" ] && kill "$SPID" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
mkdir -p "$TMP/stubs/mappings"
echo '{"request": {"url": "/slow"}, "response": {"status": 200, "body": "slow", "fixedDelayMilliseconds": 1000}}' \
  > "$TMP/stubs/mappings/slow.json"
# Room for COUNT client sockets here and COUNT server sockets there.
ulimit -n $((COUNT * 2 + 256)) 2>/dev/null || true
"$BIN" --stubs "$TMP/stubs" --port 0 --log-unmatched none > "$TMP/out" 2> "$TMP/err" &
SPID=$!
URL=$(listening_url "$TMP/out")
[ -n "$URL" ] || { echo "bench-delays: the server did not start" >&2; cat "$TMP/err" >&2; exit 1; }
wait_for "$URL/__admin/health"
read -r elapsed ok first threads < <(python3 "$ROOT/Benchmarks/delays/concurrent.py" "${URL##*:}" "$COUNT" /slow slow "$SPID")
printf '%s requests delayed 1,000 ms, sent at once: all answered in %s s (%sx the delay); %s of %s were 200 "slow";\n' \
  "$COUNT" "$elapsed" "$(awk -v e="$elapsed" 'BEGIN { printf "%.2f", e }')" "$ok" "$COUNT"
printf 'earliest first byte after %s s; the server ran at most %s threads.\n' "$first" "$threads"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
