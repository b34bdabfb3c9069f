#!/usr/bin/env bash
# Builds the RequestParser libFuzzer target and runs it for SECONDS (default 60).
# Usage: bash fuzz/run.sh [SECONDS]
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/fuzz/out"
mkdir -p "$OUT/corpus" "$OUT/crashes"

# ld.gold prints a page of harmless "Cannot export local symbol '__asan_…'" warnings: keep them in a log.
if ! swiftc -sanitize=fuzzer,address -parse-as-library -O \
    "$ROOT"/Sources/StubHTTP/Message/*.swift "$ROOT"/Sources/StubHTTP/Parser/*.swift \
    "$ROOT"/fuzz/FuzzRequestParser.swift -o "$OUT/fuzz-request-parser" >"$OUT/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$OUT/build.log" >&2
    exit 1
fi
grep -v "Cannot export local symbol" "$OUT/build.log" >&2 || true

# The working corpus grows in fuzz/out/corpus; the committed seeds stay read-only.
"$OUT/fuzz-request-parser" "$OUT/corpus" "$ROOT/fuzz/corpus" \
    -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -dict="$ROOT/fuzz/http.dict" -artifact_prefix="$OUT/crashes/" -print_final_stats=1 2>&1 \
    | tee "$OUT/last-run.log" | grep -E "stat::number_of_executed_units|stat::peak_rss_mb|ERROR|invariant|Done" || true
status=${PIPESTATUS[0]}
ls "$OUT/crashes" | sed 's/^/artifact: /'
exit "$status"
