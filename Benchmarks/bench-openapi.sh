#!/usr/bin/env bash
# OpenAPI benchmark, two measurements in one run on the same machine:
#   load     `stubserver check --openapi FILE` (release): read, parse and check a ~10 MB document (YAML), best of
#            ROUNDS, against ruamel.yaml's parse of the same file (pure Python, YAML 1.2, one round): the ratio.
#   serve    the cost of a request answered from the document against the same request answered by the same stubs
#            written as stub files ("hand-written"): three stubserver processes, one with --openapi FILE (each
#            request also checked against its operation), one with --openapi FILE --openapi-validation off, one with
#            the document's stubs saved under mappings/ and no document; wrk -t1 -c16 on GET /resources5000/5/items,
#            server CPU time per request.
# Without FILE, Benchmarks/openapi/synthetic-openapi.py writes a document of about 10 MB (11,000 operations).
# It is a measurement: it exits 0 whatever the figures.
#
# Usage: Benchmarks/bench-openapi.sh [FILE] [--no-build] [--rounds N] [--duration SECONDS] [--no-pin]
#                                    [--scratch-path DIR]
# Needs: swift, wrk, curl, python3 (ruamel.yaml for the load ratio). Takes about a minute after the build.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_NAME=bench-openapi
BENCH_HELP_END=14
# shellcheck source=Benchmarks/lib.sh
. "$ROOT/Benchmarks/lib.sh"

BUILD=1
ROUNDS=3
DURATION=5
PIN=1
SCRATCH=""
FILE=""
while [ $# -gt 0 ]; do
  case "$1" in
    -*) bench_option "$@"; shift "$BENCH_SHIFT" ;;
    *) FILE=$1; shift ;;
  esac
done
bench_require wrk curl python3
bench_pin_cpus "$PIN"

TMP=$(mktemp -d)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$TMP"; }
trap cleanup EXIT
if [ -z "$FILE" ]; then
  FILE="$TMP/synthetic-openapi.yaml"
  python3 "$ROOT/Benchmarks/openapi/synthetic-openapi.py" "$FILE"
fi
bench_build stubserver
BIN="$(bench_bin_path)/stubserver"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "document: $FILE ($(wc -c <"$FILE") bytes)"

echo "load (stubserver check --openapi):"
best=""
for round in $(seq 1 "$ROUNDS"); do
  start=$(date +%s.%N)
  "$BIN" check --openapi "$FILE" > "$TMP/check.txt"
  took=$(python3 -c "print(f'{$(date +%s.%N) - $start:.3f}')")
  echo "  round $round: $took s ($(tail -1 "$TMP/check.txt"))"
  best=$(python3 -c "print(min(float('$took'), float('${best:-1e9}')))")
done
echo "  best: $best s"
if python3 -c "import ruamel.yaml" 2>/dev/null; then
  theirs=$(python3 - "$FILE" <<'PY'
import sys, time
from ruamel.yaml import YAML
text = open(sys.argv[1], encoding="utf-8").read()
start = time.perf_counter()
YAML(typ="safe", pure=True).load(text)
print(f"{time.perf_counter() - start:.3f}")
PY
)
  echo "  ruamel.yaml (pure, parse only): $theirs s; ratio ruamel.yaml parse / stubserver load: $(python3 -c "print(f'{$theirs / $best:.1f}x')")"
else
  echo "  ruamel.yaml: SKIPPED (pip install ruamel.yaml)"
fi

echo "serve (server CPU per request):"
empty="$TMP/empty"; mkdir -p "$empty/mappings"
"${SERVER_CPU[@]}" "$BIN" --port 0 --stubs "$empty" --openapi "$FILE" > "$TMP/openapi.out" 2> "$TMP/openapi.err" &
PIDS+=($!); OPENAPI_PID=$!
OPENAPI_URL=$(listening_url "$TMP/openapi.out")
[ -n "$OPENAPI_URL" ] || { echo "$BENCH_NAME: the --openapi server did not start:"; cat "$TMP/openapi.err"; exit 1; }
# The document's own stubs, saved as stub files without their OpenAPI metadata: what a team would hand-write.
hand="$TMP/hand"; mkdir -p "$hand/mappings"
curl -s "$OPENAPI_URL/__admin/mappings" | python3 -c '
import json, sys
mappings = json.load(sys.stdin)["mappings"]
for m in mappings:
    m.pop("metadata", None)
json.dump({"mappings": mappings}, open(sys.argv[1], "w"))
print(f"  {len(mappings)} stubs saved as stub files")' "$hand/mappings/all.json"
"${SERVER_CPU[@]}" "$BIN" --port 0 --stubs "$hand" > "$TMP/hand.out" 2> "$TMP/hand.err" &
PIDS+=($!); HAND_PID=$!
HAND_URL=$(listening_url "$TMP/hand.out")
[ -n "$HAND_URL" ] || { echo "$BENCH_NAME: the stub-file server did not start:"; cat "$TMP/hand.err"; exit 1; }
"${SERVER_CPU[@]}" "$BIN" --port 0 --stubs "$empty" --openapi "$FILE" --openapi-validation off > "$TMP/off.out" \
  2> "$TMP/off.err" &
PIDS+=($!); OFF_PID=$!
OFF_URL=$(listening_url "$TMP/off.out")
[ -n "$OFF_URL" ] || { echo "$BENCH_NAME: the unchecked --openapi server did not start:"; cat "$TMP/off.err"; exit 1; }
path="/resources5000/5/items"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$OPENAPI_URL$path")" = 200 ] || echo "  warning: $path is not 200 from the document"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$HAND_URL$path")" = 200 ] || echo "  warning: $path is not 200 from the stub files"
bench_warm_up "$OPENAPI_URL$path" "$OFF_URL$path" "$HAND_URL$path"
for round in $(seq 1 2); do
  run_wrk openapi keep-alive "$OPENAPI_URL$path" "$OPENAPI_PID"
  run_wrk unchecked keep-alive "$OFF_URL$path" "$OFF_PID"
  run_wrk files keep-alive "$HAND_URL$path" "$HAND_PID"
done
python3 - "$TMP/results" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1])]
best = {}
for name, _, rps, _, _, cpu in rows:
    cpu = float(cpu)
    best[name] = min(best.get(name, cpu), cpu)
print(f"  best server CPU per request: document {best['openapi']:.1f} us, document unchecked "
      f"{best['unchecked']:.1f} us, stub files {best['files']:.1f} us")
print(f"  ratios to stub files: document {best['openapi'] / best['files']:.2f}, "
      f"document unchecked {best['unchecked'] / best['files']:.2f}")
PY
