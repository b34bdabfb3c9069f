#!/usr/bin/env bash
# Regex benchmark: stubserver's Java-style engine against NSRegularExpression (ICU), the engine CompiledRegex
# used before, on WireMock-typical patterns (URLs, a header, a 64 KiB JSON body). Both run in one process,
# in alternating rounds; the best round of each is reported with the ratio ICU / stubserver.
#
# The engine's folder has no dependency, so it is compiled straight into the benchmark with -O.
# Usage: Benchmarks/bench-regex.sh [ROUNDS]   (default 5; each case is bounded to 10 s)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
swiftc -O -package-name stubserver -module-name RegexBench Sources/StubRegex/*.swift Benchmarks/regex/main.swift \
  -o "$OUT/regex-bench" 2>&1 | grep -v '^$' || true
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
"$OUT/regex-bench" "${1:-5}"
