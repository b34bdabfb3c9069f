# Shared by .ci/readme-fresh-package.sh and .ci/docs-samples.sh (sourced, not run): a fresh package folder beside a
# link to this checkout, so `.package(path: "../stubserver")` resolves to it, and its zero-warning test build.
#
# fresh_package_workdir NAME: sets $repo and $work. $work is a new temporary folder, removed on exit unless KEEP=1
# (its path is printed). FRESH_DIR=PATH uses PATH instead and keeps it, with its .build, so a second run rebuilds
# only what changed.
fresh_package_workdir() {
    repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    if [[ -n "${FRESH_DIR:-}" ]]; then
        work="$FRESH_DIR"
        mkdir -p "$work"
        echo "$1: in $work (FRESH_DIR, kept)"
    else
        work="$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")"
        if [[ "${KEEP:-0}" == 1 ]]; then echo "$1: in $work"; else trap 'rm -rf "$work"' EXIT; fi
    fi
    ln -sfn "$repo" "$work/stubserver"
}

# fresh_package_build NAME DIR OWN: `swift build --build-tests` in DIR; fails on an error or on a warning whose
# path matches the extended regex OWN (the package's own files; the dependency's are checked by the main build).
fresh_package_build() {
    local name="$1" dir="$2" own="$3" log="$work/build.log"
    if ! (cd "$dir" && swift build --build-tests) >"$log" 2>&1; then
        # Each error once (without the source excerpts under it), else the whole log.
        grep -E '^[^ |].*error:' "$log" | awk '!seen[$0]++' | grep . || cat "$log"
        echo "$name: FAILED: the package does not build (errors above)" >&2
        return 1
    fi
    if grep -E "^($own).*warning:" "$log" | awk '!seen[$0]++' | grep .; then
        echo "$name: FAILED: it compiles with warnings (above)" >&2
        return 1
    fi
}
