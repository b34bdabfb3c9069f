#!/usr/bin/env bash
# Stages the runtime image's whole filesystem in OUT: the stubserver binary, the shared libraries it loads (its ldd
# closure: none for the static Slim binary; glibc, libstdc++ and libcurl's for a full build), a passwd/group with the
# non-root user 10001, empty /stubs/mappings and /stubs/__files, and /home/wiremock linking to /stubs. The Dockerfiles
# copy OUT into an empty (FROM scratch) image: no shell, no package manager, nothing else.
#
#   docker/rootfs.sh BINARY OUT
#
# Used by docker/Dockerfile (in its build stage) and by hand before docker/Dockerfile.prebuilt.
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 BINARY OUT" >&2; exit 2; }
BINARY=$1 OUT=$2
[ -x "$BINARY" ] || { echo "$0: $BINARY is not an executable file" >&2; exit 1; }
mkdir -p "$OUT/usr/local/bin" "$OUT/etc" "$OUT/stubs/mappings" "$OUT/stubs/__files" "$OUT/tmp" "$OUT/home"
# WireMock's image reads /home/wiremock/mappings and /home/wiremock/__files: here that is /stubs, so a volume mounted
# at either path, or files copied into either (WireMock's Testcontainers modules do), land in the one stubs folder.
ln -s ../stubs "$OUT/home/wiremock"
chmod 1777 "$OUT/tmp"
install -m 0755 "$BINARY" "$OUT/usr/local/bin/stubserver"
# ldd lines: "libx.so.1 => /path/libx.so.1 (0x…)", "/lib64/ld-linux-x86-64.so.2 (0x…)", "linux-vdso.so.1 (0x…)".
# A fully static binary (the Slim build's, linked with -static-executable) loads nothing: ldd says so and fails.
if ! ldd "$BINARY" > "$OUT/.ldd" 2>&1; then
  grep -q 'not a dynamic executable' "$OUT/.ldd" || { echo "$0: ldd $BINARY failed:" >&2; cat "$OUT/.ldd" >&2; exit 1; }
  : > "$OUT/.ldd"
fi
# HTTPS (--https-port) loads OpenSSL 3 at run time (dlopen of libssl.so.3 and libcrypto.so.3), so ldd does not list
# it: a dynamic binary gets both, and what they load, from the folder its libc comes from. The fully static Slim
# binary loads no shared library (its --https-port fails at start saying so), so it gets none.
LIBC=$(awk '$1 == "libc.so.6" && $2 == "=>" { print $3 }' "$OUT/.ldd")
if [ -n "$LIBC" ]; then
  for name in libssl.so.3 libcrypto.so.3; do
    if [ -e "$(dirname "$LIBC")/$name" ]; then
      echo "$name => $(dirname "$LIBC")/$name (0x0)" >> "$OUT/.ldd"
      ldd "$(dirname "$LIBC")/$name" >> "$OUT/.ldd"
    else
      echo "$0: note: no $name beside $LIBC: the image will serve HTTP only (apt-get install -y libssl3)" >&2
    fi
  done
fi
if grep -q 'not found' "$OUT/.ldd"; then
  echo "$0: $BINARY needs libraries this machine does not have:" >&2; grep 'not found' "$OUT/.ldd" >&2; exit 1
fi
for lib in $(awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' "$OUT/.ldd"); do
  mkdir -p "$OUT$(dirname "$lib")"
  cp -L "$lib" "$OUT$lib"
done
rm "$OUT/.ldd"
printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' 'stubserver:x:10001:10001:stubserver:/nonexistent:/sbin/nologin' > "$OUT/etc/passwd"
printf '%s\n' 'root:x:0:' 'stubserver:x:10001:' > "$OUT/etc/group"
echo "$0: $(find "$OUT" -type f | wc -l) files, $(du -sb "$OUT" | cut -f1) bytes in $OUT"
