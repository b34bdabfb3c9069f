#!/usr/bin/env bash
# The DocC articles' Swift samples compile: every ```swift block in Sources/*/Documentation.docc/*.md is compiled in a
# fresh package that depends on this checkout by path (as .ci/readme-fresh-package.sh does for the README), with
# `swift build --build-tests` and zero warnings in the samples.
#
# Each block must follow a marker line (the last non-blank line before the fence; DocC renders nothing for it):
#   <!-- sample: file -->          a complete Swift file, compiled as-is, in a test target of its own
#   <!-- sample: script -->        a complete main.swift (imports, then top-level code), an executable target of its own
#   <!-- sample: decls -->         top-level declarations (types, functions) after the imports below, a target of its own
#   <!-- sample: body -->          statements, in an `async throws` function whose parameters give them `server`
#                                  (a StubServer), `responder` (an HTTPResponder), `login`, `count`, `user` (a
#                                  GitHubUser), `pngData`, `binaryURL` and `stubsURL`; `Order` is a Decodable with `items`
#   <!-- sample: skip: REASON -->  not compiled (Package.swift lines, XCUITest on Linux); the reason is printed
# A block without one fails the check, with its file and line. Samples see the products StubHTTP, StubKit and
# StubTesting and the README's `GitHubClient` (the one client every section uses); decls and body samples
# import Foundation (and FoundationNetworking), StubHTTP, StubTesting, Testing, XCTest and GitHubClient.
# Compiler messages point at the article's lines (#sourceLocation). KEEP=1 keeps the package; FRESH_DIR=PATH reuses
# PATH and its build (a second run compiles only the samples).
set -euo pipefail
source "$(dirname "$0")/fresh-package.sh"
fresh_package_workdir docs-samples
package="$work/DocsSamples"
started=$SECONDS
rm -rf "$package/Package.swift" "$package/Sources" "$package/Tests"
mkdir -p "$package"

python3 - "$repo" "$package" <<'PY'
import glob, os, re, shutil, sys
repo, package = sys.argv[1], sys.argv[2]

def write(path, text):
    path = os.path.join(package, path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)

# The client the samples use: the README's GitHubClient (one client, one name, in every section).
readme = open(os.path.join(repo, "README.md"), encoding="utf-8").read()
client = re.search(r"<!-- readme-package: Sources/GitHubClient/GitHubClient\.swift -->\n```swift\n(.*?)\n```\n", readme, re.S)
if not client:
    sys.exit("docs-samples: README.md has no `Sources/GitHubClient/GitHubClient.swift` block")
write("Sources/GitHubClient/GitHubClient.swift", client.group(1) + "\n")

IMPORTS = """import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GitHubClient
import StubHTTP
import StubTesting
import Testing
import XCTest
"""
PARAMETERS = ("server: StubServer, responder: HTTPResponder, login: String, count: Int, user: GitHubUser, "
              "pngData: Data, binaryURL: URL, stubsURL: URL")
write("Tests/BodySamples/Prelude.swift", IMPORTS + "\nstruct Order: Decodable { let items: [String] }\n")

marker = re.compile(r"<!-- sample: (file|script|decls|body|skip: (\S.*?)) -->$")
counts = {"file": 0, "script": 0, "decls": 0, "body": 0, "skip": 0}
targets, scripts, errors = [], [], []
for article in sorted(glob.glob(os.path.join(repo, "Sources/*/Documentation.docc/*.md"))):
    shown = os.path.relpath(article, repo)
    lines = open(article, encoding="utf-8").read().split("\n")
    index, previous = 0, ""
    while index < len(lines):
        line = lines[index]
        fence = re.match(r"^(\s*)(```+|~~~+)\s*(\S*)", line)
        if not fence:
            if line.strip():
                if line.strip().startswith("<!-- sample:") and not marker.match(line.strip()):
                    errors.append(f"{shown}:{index + 1}: a malformed sample marker: {line.strip()}")
                previous = line.strip()
            index += 1
            continue
        indent, ticks, language = fence.groups()
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(ticks):
            end += 1
        code = [l[len(indent):] if l.startswith(indent) else l.lstrip() for l in lines[index + 1:end]]
        first = index + 2                               # the article's line of the block's first line of code
        kind = marker.match(previous)
        if language.lower() != "swift":
            if kind:
                errors.append(f"{shown}:{index + 1}: a sample marker before a ```{language} block, not ```swift")
        elif not kind:
            errors.append(f"{shown}:{index + 1}: a ```swift block with no <!-- sample: file|script|decls|body|skip: REASON --> line before it")
        elif kind.group(2):
            counts["skip"] += 1
            print(f"docs-samples: skipped {shown}:{index + 1}: {kind.group(2)}")
        else:
            kind = kind.group(1)
            counts[kind] += 1
            name = re.sub(r"\W", "_", os.path.splitext(os.path.basename(article))[0]) + f"_{index + 1}"
            here = f'#sourceLocation(file: "{article}", line: {first})\n'
            text = "\n".join(code) + "\n#sourceLocation()\n"
            if kind == "body":
                write(f"Tests/BodySamples/{name}.swift", IMPORTS + f"\nfunc sample_{name}({PARAMETERS}) async throws {{\n"
                      + here + text + "}\n")
            elif kind == "script":
                scripts.append(name)
                write(f"Sources/{name}/main.swift", here + text)
            else:
                targets.append(name)
                write(f"Tests/{name}/{name}.swift", (here if kind == "file" else IMPORTS + here) + text)
        previous = ""
        index = end + 1

if errors:
    print("\n".join(errors), file=sys.stderr)
    sys.exit(f"docs-samples: FAILED: {len(errors)} unmarked or misplaced sample(s) (above)")
dependencies = ('["GitHubClient", .product(name: "StubHTTP", package: "stubserver"), '
                '.product(name: "StubKit", package: "stubserver"), .product(name: "StubTesting", package: "stubserver")]')
test_targets = "".join(f'        .executableTarget(name: "{t}", dependencies: deps),\n' for t in scripts)
test_targets += "".join(f'        .testTarget(name: "{t}", dependencies: deps),\n' for t in ["BodySamples"] + targets)
write("Package.swift", f"""// swift-tools-version:6.1
import PackageDescription

let deps: [Target.Dependency] = {dependencies}
let package = Package(
    name: "DocsSamples",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(path: "../stubserver")],
    targets: [
        .target(name: "GitHubClient"),
{test_targets}    ],
    swiftLanguageModes: [.v6]
)
""")
print("docs-samples: " + ", ".join(f"{n} {k}" for k, n in counts.items()) + f" ({sum(counts.values())} ```swift blocks)")
PY

docc_articles="$repo/Sources/[^/]+/Documentation\.docc/"
if ! fresh_package_build docs-samples "$package" "$package/|$docc_articles"; then
    echo "docs-samples: fix the article (the sample, or its marker); see the header of .ci/docs-samples.sh" >&2
    exit 1
fi
echo "docs-samples: OK ($((SECONDS - started)) s)"
