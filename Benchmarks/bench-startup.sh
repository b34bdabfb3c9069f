#!/usr/bin/env bash
# Startup benchmark: how long a test waits for a StubServer (Benchmarks/startup/main.swift).
#
# Builds startup-bench in release mode and runs it on the demo stubs (Stubs/): median, p90, min and max over
# 100 runs of start + first GET /hello response + stop, of start alone, of start with no stubs, and of stop.
#
# Usage: Benchmarks/bench-startup.sh [--runs N] [--scratch-path DIR] [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=100
BUILD=1
SCRATCH=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift ;;
    --scratch-path) SCRATCH=(--scratch-path "$2"); shift ;;
    --no-build) BUILD=0 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-startup: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

if [ "$BUILD" = 1 ]; then
  swift build -c release --product startup-bench ${SCRATCH[@]+"${SCRATCH[@]}"}
fi
BIN="$(swift build -c release --show-bin-path ${SCRATCH[@]+"${SCRATCH[@]}"})/startup-bench"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
"$BIN" --stubs Stubs --runs "$RUNS"
