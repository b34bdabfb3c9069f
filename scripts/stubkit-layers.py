#!/usr/bin/env python3
"""StubKit's folders are layers (ARCHITECTURE.md): a file may use the types of its own layer and of the layers before
it, never those after it, except the back-edges listed in ALLOWED. Prints files per folder and every edge that goes
backwards; exits 1 on one that is not allowed. A type is "used" when its name appears in the file (comments
stripped) and a top-level declaration of that name is in another folder: a heuristic, enough to keep the layers.

    python3 scripts/stubkit-layers.py [Sources/StubKit]
"""
import collections, os, re, sys

LAYERS = ["JSON", "Model", "Matching", "Templating", "Loader", "Serve"]
SERVE = {"(root)", "Admin", "Closures", "Journal", "Logging", "Proxy", "Recording", "Response", "Settings", "Store", "Workers"}
# Known back-edges (file, type): none today. Add one only with the reason, and say it in ARCHITECTURE.md.
ALLOWED: set[tuple[str, str]] = set()

root = sys.argv[1] if len(sys.argv) > 1 else "Sources/StubKit"
files = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root)
               if "Documentation.docc" not in d for f in fs if f.endswith(".swift"))
def folder(rel): return rel.split(os.sep)[0] if os.sep in rel else "(root)"
def layer(rel): f = folder(rel); return "Serve" if f in SERVE else f
unknown = sorted({folder(f) for f in files if layer(f) not in LAYERS})
if unknown: sys.exit(f"stubkit-layers: folders with no layer: {', '.join(unknown)} (add them to LAYERS or SERVE)")

top_level = re.compile(r"^(?:@\w+(?:\([^)]*\))? )*(?:public |package |internal |fileprivate |private )?(?:final |indirect )*"
                       r"(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z]\w*)", re.M)
owner = {}
for rel in files:
    for m in top_level.finditer(open(os.path.join(root, rel), encoding="utf-8").read()):
        owner.setdefault(m.group(1), rel)
backwards, bad = [], []
for rel in files:
    text = re.sub(r"//.*", "", open(os.path.join(root, rel), encoding="utf-8").read())
    for name in sorted(set(re.findall(r"\b([A-Z]\w*)\b", text))):
        other = owner.get(name)
        if other and LAYERS.index(layer(other)) > LAYERS.index(layer(rel)):
            line = f"  {rel} uses {name} ({other}: {layer(rel)} -> {layer(other)})"
            (backwards if (rel, name) in ALLOWED else bad).append(line)
count = collections.Counter(folder(f) for f in files)
print("stubkit-layers: files per folder: " + ", ".join(f"{k} {count[k]}" for k in sorted(count)))
print(f"stubkit-layers: {len(backwards)} allowed back-edge(s)", *backwards, sep="\n")
if bad:
    print(f"stubkit-layers: FAILED: {len(bad)} use(s) of a later layer (move the type, or the code that uses it):",
          *bad, sep="\n", file=sys.stderr)
    sys.exit(1)
print("stubkit-layers: OK: " + " → ".join(LAYERS))
