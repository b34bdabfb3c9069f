#!/usr/bin/env bash
# YAML benchmark: StubYAML's parse time (release build, Benchmarks/yaml-bench) against ruamel.yaml's (typ='safe',
# pure=True, YAML 1.2) on the same file, and the ratio; then the same document written as JSON, which StubYAML
# reads through the same entry point.
#
# FILE is a YAML document, e.g. GitHub's REST description (github/rest-api-description,
# descriptions/api.github.com/api.github.com.yaml, about 10 MB; not in this repository). Without FILE, a synthetic
# OpenAPI-like document of about 10 MB is generated (block mappings and sequences, flow collections, quoted and
# block scalars, anchors and aliases, numbers). Without python3 and ruamel.yaml the comparison is skipped.
#
# Usage: Benchmarks/bench-yaml.sh [FILE] [--rounds N] [--no-build] [--scratch-path DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=5
BUILD=1
SCRATCH=()
FILE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS=$2; shift ;;
    --scratch-path) SCRATCH=(--scratch-path "$2"); shift ;;
    --no-build) BUILD=0 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench-yaml: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) FILE=$1 ;;
  esac
  shift
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ -z "$FILE" ]; then
  command -v python3 >/dev/null || { echo "bench-yaml: no FILE given and no python3 to generate one: SKIPPED" >&2; exit 0; }
  FILE="$TMP/synthetic-openapi.yaml"
  python3 Benchmarks/openapi/synthetic-openapi.py "$FILE"
fi
[ -r "$FILE" ] || { echo "bench-yaml: cannot read $FILE: SKIPPED" >&2; exit 0; }

if [ "$BUILD" = 1 ]; then
  swift build -c release --product yaml-bench ${SCRATCH[@]+"${SCRATCH[@]}"} 2>&1 | tail -1
fi
BIN="$(swift build -c release --show-bin-path ${SCRATCH[@]+"${SCRATCH[@]}"})/yaml-bench"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo "file: $FILE ($(wc -c <"$FILE") bytes)"
OURS=$("$BIN" "$FILE" "$ROUNDS")
echo "$OURS"

if ! python3 -c "import ruamel.yaml" 2>/dev/null; then
  echo "ruamel.yaml: SKIPPED (pip install ruamel.yaml)"
  exit 0
fi
# One round of ruamel.yaml (pure Python is slow on 10 MB), and the same document as JSON for StubYAML.
THEIRS=$(python3 - "$FILE" "$TMP/document.json" <<'PY'
import sys, time, json
from ruamel.yaml import YAML
text = open(sys.argv[1], encoding="utf-8").read()
start = time.perf_counter()
value = YAML(typ="safe", pure=True).load(text)
elapsed = time.perf_counter() - start
def norm(v):
    if isinstance(v, dict): return {str(k): norm(x) for k, x in v.items()}
    if isinstance(v, list): return [norm(x) for x in v]
    return v
json.dump(norm(value), open(sys.argv[2], "w"), default=str, indent=1)
print(f"{elapsed:.3f}")
PY
)
echo "ruamel.yaml $(python3 -c 'import ruamel.yaml; print(ruamel.yaml.__version__)') (pure): 1 round, $THEIRS s"
BEST=$(echo "$OURS" | sed -E 's/.*best ([0-9.]+) s.*/\1/')
python3 -c "print(f'ratio ruamel.yaml / stubyaml: {float($THEIRS) / float($BEST):.1f}x')"
echo "the same document as JSON ($(wc -c <"$TMP/document.json") bytes, indented):"
"$BIN" "$TMP/document.json" "$ROUNDS"
