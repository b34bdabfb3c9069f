#!/usr/bin/env bash
# "Getting started" as a new user meets it: builds a fresh package from README.md alone and runs its tests.
#
# Every fenced block preceded by `<!-- readme-package: PATH -->` in README.md is written to PATH in a new
# package folder; the README's `.package(url: …, from: …)` line is swapped for the README's own path form,
# `.package(path: "../stubserver")`, with `../stubserver` a link to this checkout (so the package identity is
# `stubserver`, as the README says). Then `swift build --build-tests` (zero warnings) and `swift test`.
# A snippet that does not compile or a test that fails here is a README bug.
set -euo pipefail
# KEEP=1 keeps the package (its path is printed) for trying things out; FRESH_DIR=PATH reuses PATH and its build.
source "$(dirname "$0")/fresh-package.sh"
fresh_package_workdir readme-fresh-package
package="$work/GitHubClient"
mkdir -p "$package"

python3 - "$repo/README.md" "$package" <<'PY'
import os, re, sys
readme, package = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"<!-- readme-package: (\S+) -->\n```[a-z]*\n(.*?)\n```\n", text, re.S)
if not blocks:
    sys.exit("readme-fresh-package: no `<!-- readme-package: PATH -->` blocks in README.md")
install = re.findall(r'\.package\(url: "[^"]+", from: "([0-9]+\.[0-9]+\.[0-9]+)"\)', text)
by_path = re.findall(r'\.package\(path: "\.\./stubserver"\)', text)
if not install or not by_path:
    sys.exit("readme-fresh-package: README.md lacks the .package(url:from:) or the .package(path: \"../stubserver\") line")
for path, body in blocks:
    if path == "Package.swift":
        body, n = re.subn(r'\.package\(url: "[^"]+", from: "[^"]+"\)', by_path[0], body)
        if n != 1:
            sys.exit("readme-fresh-package: the Package.swift snippet has no .package(url:from:) line to swap")
    target = os.path.join(package, path)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8") as f:
        f.write(body + "\n")
    print(f"readme-fresh-package: wrote {path} ({body.count(chr(10)) + 1} lines)")
print("readme-fresh-package: README installs version " + ", ".join(sorted(set(install))))
PY

fresh_package_build readme-fresh-package "$package" "$package/"
cd "$package"
swift test --skip-build 2>&1 | tee "$work/test.log" | grep -E "error|failed|passed after|Executed .* tests" || true
if grep -qE "error:|✘| failed " "$work/test.log"; then
    echo "readme-fresh-package: FAILED: the README's tests fail" >&2
    exit 1
fi
echo "readme-fresh-package: OK"
