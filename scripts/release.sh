#!/usr/bin/env bash
# Builds the stubserver release binaries with SHA-256 checksums into dist/ (or OUT):
#
#   on macOS:  stubserver-VERSION-macos-universal.tar.gz   arm64 + x86_64 in one binary (lipo), needs a Mac with
#                                                          Xcode 16.3 or later: `swift build --arch arm64 --arch x86_64`
#                                                          only works with Xcode's toolchain
#   on Linux:  stubserver-VERSION-linux-ARCH.tar.gz        the Swift runtime linked in (--static-swift-stdlib;
#                                                          glibc stays dynamic, so build on the oldest distribution you
#                                                          support); with the Static Linux SDK installed
#                                                          (swift sdk list shows ARCH-swift-linux-musl) fully static
#   SHA256SUMS                                             `sha256sum -c SHA256SUMS` checks them
#
#   scripts/release.sh                 full build (proxying and recording; a glibc build needs libcurl at run time)
#   TRAITS=Slim scripts/release.sh     the Slim executable (no proxying, recording or client; no libcurl), linked
#                                      fully static (-static-executable, glibc inside) as the Docker image's
#
# Run it on each platform and merge the dist/ folders (concatenate the SHA256SUMS files). It prints the command
# that gives the source archive's sha256 for Formula/stubserver.rb.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-dist}
TRAITS=${TRAITS:-}
VERSION=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/StubKit/Admin/AdminAPI+Server.swift)
[ -n "$VERSION" ] || { echo "$0: cannot read the version from Sources/StubKit/Admin/AdminAPI+Server.swift" >&2; exit 1; }
mkdir -p "$OUT"
traits=()
[ -z "$TRAITS" ] || traits=(--traits "$TRAITS")
suffix=${TRAITS:+-$(echo "$TRAITS" | tr '[:upper:],' '[:lower:]-')}

package() {   # package BINARY NAME: NAME.tar.gz holding bin/stubserver, plus its line in SHA256SUMS
  local binary=$1 name=$2 stage
  stage=$(mktemp -d)
  mkdir -p "$stage/$name/bin"
  cp "$binary" "$stage/$name/bin/stubserver"
  [ -f README.md ] && cp README.md "$stage/$name/"
  tar -C "$stage" -czf "$OUT/$name.tar.gz" "$name"
  rm -rf "$stage"
  (cd "$OUT" && { grep -v "  $name.tar.gz\$" SHA256SUMS > SHA256SUMS.new 2>/dev/null || true
                 { sha256sum "$name.tar.gz" 2>/dev/null || shasum -a 256 "$name.tar.gz"; } >> SHA256SUMS.new
                 mv SHA256SUMS.new SHA256SUMS; })
  echo "$0: $OUT/$name.tar.gz"
}

case "$(uname -s)" in
  Darwin)
    swift build -c release --product stubserver --arch arm64 --arch x86_64 ${traits[@]+"${traits[@]}"}
    binary="$(swift build -c release --arch arm64 --arch x86_64 ${traits[@]+"${traits[@]}"} --show-bin-path)/stubserver"
    lipo -info "$binary"
    lipo "$binary" -verify_arch arm64 x86_64
    "$binary" --version
    package "$binary" "stubserver-$VERSION-macos-universal$suffix"
    ;;
  Linux)
    arch=$(uname -m)
    sdk=()
    if swift sdk list 2>/dev/null | grep -q "^$arch-swift-linux-musl"; then
      sdk=(--swift-sdk "$arch-swift-linux-musl")   # fully static (musl)
      kind=static
    else
      sdk=(--static-swift-stdlib)
      kind=glibc
      if [ "$TRAITS" = Slim ]; then
        sdk+=(-Xswiftc -static-executable)   # glibc linked in too, as the Docker image's
        kind=static
      else
        echo "$0: no Static Linux SDK ($arch-swift-linux-musl): the Swift runtime is linked in, glibc stays dynamic"
      fi
    fi
    # The full build links FoundationNetworking, whose static form needs libcurl's development files.
    if [ "$kind" = glibc ] && [ -z "$TRAITS" ] && ! ldconfig -p 2>/dev/null | grep -q 'libcurl\.so '; then
      echo "$0: the full build links libcurl statically: apt-get install libcurl4-openssl-dev, or TRAITS=Slim" >&2
      exit 1
    fi
    swift build -c release --product stubserver -Xlinker -s "${sdk[@]}" ${traits[@]+"${traits[@]}"}
    binary="$(swift build -c release "${sdk[@]}" ${traits[@]+"${traits[@]}"} --show-bin-path)/stubserver"
    "$binary" --version
    if [ "$kind" = glibc ]; then
      echo "$0: shared libraries:"; ldd "$binary" | sed 's/^/  /'
    fi
    package "$binary" "stubserver-$VERSION-linux-$arch-$kind$suffix"
    ;;
  *) echo "$0: unsupported system $(uname -s); build on macOS (universal binary) or Linux" >&2; exit 1 ;;
esac
[ "$(uname -s)" = Darwin ] || echo "$0: the universal macOS binary needs a Mac: run this script there too."
echo "$0: checksums in $OUT/SHA256SUMS"
echo "$0: for Formula/stubserver.rb, after tagging $VERSION:"
echo "  curl -sL https://github.com/YOUR-ORG/stubserver/archive/refs/tags/$VERSION.tar.gz | shasum -a 256"
