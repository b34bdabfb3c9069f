#!/usr/bin/env bash
# Builds a libFuzzer target and runs it for SECONDS (default 60): the HTTP request parser (default), the XML
# parser with rendering, comparison and XPath (`xml`), the GraphQL reader and normaliser (`graphql`), the
# WebSocket frame parser, message assembler, serializer and handshake (`websocket`), or the YAML parser (`yaml`).
# Usage: bash fuzz/run.sh [SECONDS] [request|xml|graphql|websocket|yaml]
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
TARGET="${2:-request}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
case "$TARGET" in
request)
    SOURCES=("$ROOT"/Sources/StubHTTP/Message/*.swift "$ROOT"/Sources/StubHTTP/Parser/*.swift "$ROOT"/fuzz/FuzzRequestParser.swift)
    SEEDS="$ROOT/fuzz/corpus"
    DICT="$ROOT/fuzz/http.dict"
    OUT="$ROOT/fuzz/out"
    ;;
xml)
    SOURCES=("$ROOT"/Sources/StubXML/*.swift "$ROOT"/Sources/StubRegex/*.swift "$ROOT"/fuzz/FuzzXMLParser.swift)
    SEEDS="$ROOT/fuzz/corpus-xml"
    DICT="$ROOT/fuzz/xml.dict"
    OUT="$ROOT/fuzz/out-xml"
    ;;
graphql)
    SOURCES=("$ROOT"/Sources/StubModel/JSON/*.swift "$ROOT"/Sources/StubMatching/GraphQL{Lexer,Parser,Document,Normalizer}.swift
        "$ROOT"/fuzz/FuzzGraphQL.swift)
    SEEDS="$ROOT/fuzz/corpus-graphql"
    DICT="$ROOT/fuzz/graphql.dict"
    OUT="$ROOT/fuzz/out-graphql"
    ;;
yaml)
    SOURCES=("$ROOT"/Sources/StubModel/JSON/*.swift "$ROOT"/Sources/StubYAML/*.swift "$ROOT"/fuzz/FuzzYAMLParser.swift)
    SEEDS="$ROOT/fuzz/corpus-yaml"
    DICT="$ROOT/fuzz/yaml.dict"
    OUT="$ROOT/fuzz/out-yaml"
    ;;
websocket)
    SOURCES=("$ROOT"/Sources/StubHTTP/Message/*.swift "$ROOT"/Sources/StubHTTP/WebSocket/*.swift "$ROOT"/fuzz/FuzzWebSocket.swift)
    SEEDS="$ROOT/fuzz/corpus-websocket"
    DICT="$ROOT/fuzz/websocket.dict"
    OUT="$ROOT/fuzz/out-websocket"
    ;;
*)
    echo "usage: bash fuzz/run.sh [SECONDS] [request|xml|graphql|websocket|yaml]" >&2
    exit 2
    ;;
esac
mkdir -p "$OUT/corpus" "$OUT/crashes"
# One module: the targets' imports of each other (`import StubRegex`) go, in copies outside the tree (where
# swift-format's lint of fuzz/ would read them).
SRC=$(mktemp -d)
trap 'rm -rf "$SRC"' EXIT
COPIES=()
for source in "${SOURCES[@]}"; do
    copy="$SRC/$(basename "$(dirname "$source")")-$(basename "$source")"
    grep -v -E '^import Stub(Regex|HTTP|XML|Model|Matching|YAML)$' "$source" >"$copy"
    COPIES+=("$copy")
done

# ld.gold prints a page of harmless "Cannot export local symbol '__asan_…'" warnings: keep them in a log.
if ! swiftc -sanitize=fuzzer,address -parse-as-library -package-name stubserver -O "${COPIES[@]}" -o "$OUT/fuzz-$TARGET" >"$OUT/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$OUT/build.log" >&2
    exit 1
fi
grep -v "Cannot export local symbol" "$OUT/build.log" >&2 || true

# The working corpus grows in $OUT/corpus; the committed seeds stay read-only.
"$OUT/fuzz-$TARGET" "$OUT/corpus" "$SEEDS" \
    -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -dict="$DICT" -artifact_prefix="$OUT/crashes/" -print_final_stats=1 2>&1 \
    | tee "$OUT/last-run.log" | grep -E "stat::number_of_executed_units|stat::peak_rss_mb|ERROR|invariant|Done" || true
status=${PIPESTATUS[0]}
ls "$OUT/crashes" | sed 's/^/artifact: /'
exit "$status"
