#!/usr/bin/env bash
# "Getting started" as a new user meets it: builds a fresh package from README.md alone and runs its tests.
#
# Every fenced block preceded by `<!-- readme-package: PATH -->` in README.md is written to PATH in a new
# package folder; the README's `.package(url: …, from: …)` line is swapped for the README's own path form,
# `.package(path: "../stubserver")`, with `../stubserver` a link to this checkout (so the package identity is
# `stubserver`, as the README says). Then `swift build --build-tests` (zero warnings) and `swift test`, three ways:
# in-process; against the stubserver binary started with the package's stubs and `--admin-token`, with
# STUBSERVER_URL and STUBSERVER_ADMIN_TOKEN set (the README's "same tests against a server CI started"); and
# without the token, which must fail with a 401 naming STUBSERVER_ADMIN_TOKEN. With STUBSERVER_DOCKER_IMAGE set
# (docker/test-image.sh does), a fourth: against that image, run with the package's stubs and the token.
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

# run_tests LOG [VAR=VALUE…]: the package's tests, with the variables set; the summary lines are shown.
run_tests() {
    local log="$1"; shift
    env "$@" swift test --skip-build >"$log" 2>&1 || true
    grep -E "error|failed|passed after|Executed .* tests" "$log" || true
}
passed() { ! grep -qE "error:|✘| failed " "$1" && grep -qE "Executed [1-9][0-9]* tests?, with 0 failures" "$1" \
    && grep -qE "Test run with [1-9][0-9]* tests? .*passed" "$1"; }

echo "readme-fresh-package: in-process"
run_tests "$work/in-process.log"
passed "$work/in-process.log" || { echo "readme-fresh-package: FAILED: the README's tests fail in-process" >&2; exit 1; }

# The same tests against the stubserver binary, started with the package's stubs and an admin token, as the README's
# "The same tests against a server CI started" says. STUBSERVER_BIN overrides the binary (default: this checkout's
# debug build, built here if missing).
bin="${STUBSERVER_BIN:-}"
if [[ -z "$bin" ]]; then
    (cd "$repo" && swift build --product stubserver >/dev/null)
    bin="$(cd "$repo" && swift build --show-bin-path)/stubserver"
fi
# One cleanup for whatever was started: the server, the container and its stubs folder, then the package folder
# (kept with KEEP=1 or FRESH_DIR, as fresh_package_workdir says).
server_pid="" container="" stubs=""
cleanup() {
    if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    if [[ -n "$container" ]]; then docker rm -f "$container" >/dev/null 2>&1 || true; fi
    if [[ -n "$stubs" ]]; then rm -rf "$stubs"; fi
    if [[ "${KEEP:-0}" != 1 && -z "${FRESH_DIR:-}" ]]; then rm -rf "$work"; fi
}
trap cleanup EXIT
token="readme-$RANDOM$RANDOM"
"$bin" --stubs "$package/Stubs" --port 0 --admin-token "$token" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
url=""
for _ in $(seq 100); do
    url="$(sed -n 's/^Listening on \(http:[^ ]*\).*/\1/p' "$work/server.out" | head -1)"
    [[ -n "$url" ]] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
[[ -n "$url" ]] || { cat "$work/server.err" >&2; echo "readme-fresh-package: FAILED: $bin did not start" >&2; exit 1; }

echo "readme-fresh-package: against $bin at $url with --admin-token"
run_tests "$work/external.log" STUBSERVER_URL="$url" STUBSERVER_ADMIN_TOKEN="$token"
passed "$work/external.log" || { echo "readme-fresh-package: FAILED: the README's tests fail against the CLI" >&2; exit 1; }

echo "readme-fresh-package: against the CLI without the token (must fail, naming STUBSERVER_ADMIN_TOKEN)"
env STUBSERVER_URL="$url" swift test --skip-build >"$work/no-token.log" 2>&1 || true
if passed "$work/no-token.log" || ! grep -q "STUBSERVER_ADMIN_TOKEN" "$work/no-token.log"; then
    tail -20 "$work/no-token.log" >&2
    echo "readme-fresh-package: FAILED: without the token the tests should fail with a 401 naming STUBSERVER_ADMIN_TOKEN" >&2
    exit 1
fi
grep -o "401: the admin API needs[^(]*([^)]*)" "$work/no-token.log" | head -1 || true
kill "$server_pid" 2>/dev/null || true

# And against the Docker image (docker/test-image.sh sets STUBSERVER_DOCKER_IMAGE once it has built one): the same
# tests, the container started as the README and docker/README.md say, with the package's stubs and a token.
if [[ -n "${STUBSERVER_DOCKER_IMAGE:-}" ]]; then
    container="readme-fresh-package-$$"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    # The image runs as uid 10001: the stubs it mounts must be readable by others, so they go in a folder of their own.
    stubs="$(mktemp -d "${TMPDIR:-/tmp}/readme-stubs.XXXXXX")"
    cp -R "$package/Stubs/." "$stubs/"
    chmod -R a+rX "$stubs"
    timeout 60 docker run -d --name "$container" --network host -v "$stubs:/stubs:ro" \
        -e STUBSERVER_OPTIONS="--port $port --admin-token $token" "$STUBSERVER_DOCKER_IMAGE" >/dev/null
    bash "$repo/docker/wait-healthy.sh" "$container" 60 >/dev/null \
        || { docker logs "$container" 2>&1 | tail -20 >&2; echo "readme-fresh-package: FAILED: the container did not turn healthy" >&2; exit 1; }
    echo "readme-fresh-package: against the container ($STUBSERVER_DOCKER_IMAGE) at http://127.0.0.1:$port with --admin-token"
    run_tests "$work/container.log" STUBSERVER_URL="http://127.0.0.1:$port" STUBSERVER_ADMIN_TOKEN="$token"
    passed "$work/container.log" || { echo "readme-fresh-package: FAILED: the README's tests fail against the container" >&2; exit 1; }
    docker rm -f "$container" >/dev/null
    echo "readme-fresh-package: OK (in-process, against the CLI and the container with a token, and refused without it)"
else
    echo "readme-fresh-package: OK (in-process, against the CLI with a token, and refused without it)"
fi
