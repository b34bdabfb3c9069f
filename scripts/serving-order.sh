#!/usr/bin/env bash
# StubKit's folders are layers (ARCHITECTURE.md, "The serving target"): Settings, Logging, Journal, Response,
# Closures, Store, Recording, Admin, then the root (StubServer, the request handler, the isolated servers). The
# targets below StubKit are kept apart by the compiler; inside StubKit this does it: the folders are type-checked
# in that order, each prefix alone, so a file that uses a later folder (a type, a member, an extension) fails
# with the compiler's own error. Needs the debug build (`swift build`): it reads the modules StubKit imports from
# .build/debug. About 30 seconds on 2 cores.
#
#     bash scripts/serving-order.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ORDER=(Settings Logging Journal Response Closures Data Store Recording Admin)
build=.build/debug
[ -d "$build/Modules" ] || { echo "serving-order: no debug build in .build (run swift build first)" >&2; exit 2; }
# `package` declarations of the lower targets are visible only with the package name SwiftPM compiled them with.
package=$(grep -o 'package-name","[^"]*' .build/debug.yaml | head -1 | sed 's/.*"//')
[ -n "$package" ] || { echo "serving-order: cannot read the package name from .build/debug.yaml" >&2; exit 2; }
files=(Sources/StubKit/StubKit.swift)
status=0
for folder in "${ORDER[@]}"; do
  [ -d "Sources/StubKit/$folder" ] || { echo "serving-order: Sources/StubKit/$folder does not exist" >&2; exit 2; }
  mapfile -t more < <(find "Sources/StubKit/$folder" -name '*.swift' | sort)
  files+=("${more[@]}")
  if ! out=$(swiftc -typecheck -swift-version 6 -module-name StubKit -package-name "$package" \
      -I "$build/Modules" -Xcc -fmodule-map-file="$build/CStubSystem.build/module.modulemap" \
      -Xcc -I -Xcc Sources/CStubSystem/include "${files[@]}" 2>&1); then
    printf '%s\n' "$out" | grep -E '^Sources/.*error:' | sort -u >&2
    echo "serving-order: FAILED: Sources/StubKit/$folder or a folder before it uses a later one (above)" >&2
    status=1
    break
  fi
done
unlisted=$(find Sources/StubKit -mindepth 1 -maxdepth 1 -type d ! -name Documentation.docc -printf '%f\n' | sort \
  | grep -vxF -f <(printf '%s\n' "${ORDER[@]}") || true)
if [ -n "$unlisted" ]; then
  echo "serving-order: FAILED: folders not in the order: $unlisted (add them to ORDER and to ARCHITECTURE.md)" >&2
  status=1
fi
[ "$status" = 0 ] && echo "serving-order: OK: ${ORDER[*]} → (root), each folder uses only those before it"
exit "$status"
