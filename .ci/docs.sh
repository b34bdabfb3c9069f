#!/usr/bin/env bash
# The documentation: the public targets' symbol graphs, then each DocC catalog (Sources/MODULE/Documentation.docc)
# converted with warnings as errors, so every ``symbol`` link in the doc comments and the articles resolves.
# Uses only what the toolchain ships (swiftc's symbol graphs, docc); no plugin, no package dependency.
# Output: .build/docs/MODULE.doccarchive (DOCS_OUTPUT=DIR to put them elsewhere). Takes about 3 minutes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scratch="${DOCS_SCRATCH:-$root/.build/docs-build}"
output="${DOCS_OUTPUT:-$root/.build/docs}"
graphs="$(mktemp -d "${TMPDIR:-/tmp}/symbol-graphs.XXXXXX")"
trap 'rm -rf "$graphs"' EXIT
docc="$(command -v docc || echo "$(dirname "$(command -v swift)")/docc")"
[ -x "$docc" ] || { echo "docs: docc not found beside swift" >&2; exit 2; }

# One build of StubTesting compiles StubHTTP, StubKit, StubClient and StubWebSockets too, each writing its symbol graph.
# StubKit's graph also holds the symbols of the targets it re-exports (StubModel, StubMatching, StubTemplating,
# StubLoading, StubProxy: `@_exported import` in StubKit.swift), as StubKit's, so StubKit's catalog documents and
# links them as one module, the one users import; those targets are not products and have no catalog of their own.
swift build --target StubTesting --scratch-path "$scratch" \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs/all" 2>&1 | tail -1
mkdir -p "$output"
status=0

# Public StubKit, StubClient and StubTesting API names the engine's types by their aliases (StubHTTPRequest, …; see
# StubModel/Exports.swift): a declaration written with `HTTPRequest` makes compiler messages and these pages say a
# name users cannot write without importing StubHTTP. The symbol graphs keep the spelling each declaration uses.
python3 - "$graphs/all" <<'PY' || status=1
import json, os, sys
engine = {"HTTPRequest", "HTTPMethod", "HTTPHeaders", "HTTPStatus", "HTTPVersion", "HTTPResponse"}
found = []
for module in ("StubKit", "StubClient", "StubWebSockets", "StubTesting"):
    for name in os.listdir(sys.argv[1]):
        if name == f"{module}.symbols.json" or name.startswith(f"{module}@"):
            graph = json.load(open(os.path.join(sys.argv[1], name)))
            for symbol in graph["symbols"]:
                if symbol["kind"]["identifier"] == "swift.typealias":
                    continue   # the aliases themselves (StubModel/Exports.swift) name what they stand for
                spelled = {f["spelling"] for f in symbol.get("declarationFragments", []) if f["kind"] == "typeIdentifier"}
                for bad in sorted(spelled & engine):
                    found.append(f"  {module}: {'.'.join(symbol['pathComponents'])} names {bad}; write Stub{bad}")
if found:
    print("docs: public API names the engine's types instead of their Stub… aliases:", *sorted(set(found)), sep="\n", file=sys.stderr)
    sys.exit(1)
print("docs: StubKit, StubClient, StubWebSockets and StubTesting declarations name StubHTTPRequest, StubHTTPHeaders, …, never the engine's types")
PY
for module in StubHTTP StubKit StubClient StubWebSockets StubTesting; do
  mkdir -p "$graphs/$module"
  # The module's own graph and its extensions of other modules (MODULE@Other.symbols.json).
  cp "$graphs/all/$module.symbols.json" "$graphs/$module/"
  find "$graphs/all" -name "$module@*.symbols.json" -exec cp {} "$graphs/$module/" \;
  echo "docs: $module"
  if ! "$docc" convert "Sources/$module/Documentation.docc" --additional-symbol-graph-dir "$graphs/$module" \
      --output-path "$output/$module.doccarchive" --fallback-display-name "$module" \
      --fallback-bundle-identifier "org.stubserver.$module" --warnings-as-errors > "$graphs/$module.log" 2>&1; then
    cat "$graphs/$module.log" >&2
    echo "docs: $module has documentation warnings (above)" >&2
    status=1
  fi
done
[ "$status" = 0 ] && echo "docs: StubHTTP, StubKit, StubClient, StubWebSockets and StubTesting build with no warnings"
exit "$status"
