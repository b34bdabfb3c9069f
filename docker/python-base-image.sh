#!/usr/bin/env bash
# Makes the base image of the example test service (example-tests/Dockerfile: FROM python:3-slim) available to the
# Docker engine: already there, pulled, or, on a machine that cannot pull, built offline from Debian's packages
# (debootstrap minbase + python3, then `docker import` under the same tag). The stubserver image itself is FROM
# scratch and needs no base image. docker/README.md, "Without a registry", says what this does step by step.
#
#   docker/python-base-image.sh [CACHE]      # CACHE: where the debootstrapped tree is kept (default /tmp/stubserver-docker)
#
# Needs docker; for the offline way, root, debootstrap (apt-get install -y debootstrap) and a reachable Debian mirror
# (MIRROR, default http://deb.debian.org/debian). Exit codes: 0 the image is there, 77 the Debian mirror could not
# be reached (nothing to build from), 1 anything else.
set -euo pipefail
CACHE=${1:-/tmp/stubserver-docker}
TAG=python:3-slim
MIRROR=${MIRROR:-http://deb.debian.org/debian}

if timeout 30 docker image inspect "$TAG" >/dev/null 2>&1; then
  echo "$TAG: present"; exit 0
fi
if timeout 120 docker pull "$TAG" >/dev/null 2>&1; then
  echo "$TAG: pulled"; exit 0
fi
echo "$TAG: cannot pull; building a stand-in with debootstrap (minbase + python3) and docker import"
command -v debootstrap >/dev/null || { echo "$0: no debootstrap (apt-get install -y debootstrap)" >&2; exit 1; }
ROOTFS=$CACHE/rootfs-python3
if [ ! -f "$CACHE/rootfs-python3.done" ]; then
  rm -rf "$ROOTFS"
  mkdir -p "$CACHE"
  if ! timeout 900 debootstrap --variant=minbase --include=python3 bookworm "$ROOTFS" "$MIRROR" \
    >"$CACHE/debootstrap.log" 2>&1; then
    tail -n 20 "$CACHE/debootstrap.log" >&2
    echo "$0: debootstrap failed (is $MIRROR reachable?); log: $CACHE/debootstrap.log" >&2
    exit 77
  fi
  touch "$CACHE/rootfs-python3.done"
fi
# The downloaded packages and apt's lists are not needed in the image.
tar -C "$ROOTFS" --exclude='./var/cache/apt/archives/*.deb' --exclude='./var/lib/apt/lists/*' -c . \
  | timeout 300 docker import -c 'CMD ["python3"]' - "$TAG" >/dev/null
echo "$TAG: imported from $ROOTFS"
