#!/usr/bin/env bash
# Proves the stubserver image works on this machine, end to end:
#
#   1. builds the release binary with the static Swift runtime and checks with ldd that it needs only glibc;
#   2. finds a Docker daemon, or starts its own under /tmp (and stops only that one, by PID, on exit);
#   3. makes sure the base image debian:bookworm-slim exists: pulls it, or, where no registry is reachable,
#      builds it with debootstrap (root filesystem cached under $CACHE) and `docker import`;
#   4. checks that docker/Dockerfile and docker/Dockerfile.prebuilt share the same runtime block, then builds the
#      image with docker/Dockerfile.prebuilt from the binary alone;
#   5. runs it with --network host on a free port, waits for it, checks the "Listening on" log line, runs
#      Stubs/check-against-wiremock.sh, waits for the HEALTHCHECK to say healthy, then `docker stop` must end it
#      with exit code 0;
#   6. does the same through docker/docker-compose.yml (up -d, check, down).
#
#   docker/test-image.sh                 # needs root (dockerd, debootstrap), swift, curl, python3
#
# Not part of .ci/run: too slow and heavy. Measured here (2 cores): 86 s cold (fresh release build 30 s, debootstrap +
# import 37 s, image build 4 s, two runs with the 74 checks 14 s); 20 s warm (base image and build cached).
# Every wait is bounded; exits non-zero on any failure.
# Environment: SCRATCH (swift build dir, default /tmp/build-docker), CACHE (default /tmp/stubserver-docker),
# IMAGE (default stubserver:test), DOCKER_HOST (an existing daemon to use instead of starting one).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=${SCRATCH:-/tmp/build-docker}
CACHE=${CACHE:-/tmp/stubserver-docker}
IMAGE=${IMAGE:-stubserver:test}
BASE_IMAGE=debian:bookworm-slim
NAME=stubserver-test-$$
PROJECT=stubservertest$$
WORK=$(mktemp -d)
DOCKERD_PID=
COMPOSE=()
STARTED=$SECONDS

step() { echo; echo "== [$((SECONDS - STARTED))s] $*"; }
die() { echo "FAIL: $*" >&2; exit 1; }

cleanup() {
  local code=$?
  set +e
  if [ "$code" != 0 ] && command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    echo "--- logs of $NAME:"; timeout 10 docker logs "$NAME" 2>&1 | tail -n 20
    if [ ${#COMPOSE[@]} -gt 0 ]; then echo "--- compose logs:"; timeout 10 "${COMPOSE[@]}" logs --tail 20; fi
  fi
  timeout 30 docker rm -f "$NAME" >/dev/null 2>&1
  if [ ${#COMPOSE[@]} -gt 0 ]; then timeout 60 "${COMPOSE[@]}" down >/dev/null 2>&1; fi
  if [ -n "$DOCKERD_PID" ]; then
    kill -TERM "$DOCKERD_PID" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$DOCKERD_PID" 2>/dev/null && kill -KILL "$DOCKERD_PID"
  fi
  rm -rf "$WORK"
  echo; echo "docker/test-image.sh: $([ "$code" = 0 ] && echo ok || echo FAILED) after $((SECONDS - STARTED))s"
  exit "$code"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# wait_for_port PORT SECONDS CONTAINER: until 127.0.0.1:PORT accepts connections; fails early if CONTAINER stopped.
wait_for_port() {
  local deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    [ "$(docker inspect -f '{{.State.Running}}' "$3" 2>/dev/null)" = true ] \
      || die "container $3 stopped (exit code $(docker inspect -f '{{.State.ExitCode}}' "$3" 2>/dev/null))"
    sleep 0.2
  done
  die "nothing listens on 127.0.0.1:$1 after $2s"
}

# wait_for_listening_line CONTAINER PORT SECONDS: until the first line of the container's stdout (docker logs
# passes the container's stderr to its own stderr) reads "Listening on http://HOST:PORT".
wait_for_listening_line() {
  local deadline=$((SECONDS + $3)) first=
  while [ $SECONDS -lt $deadline ]; do
    first=$(timeout 10 docker logs "$1" 2>/dev/null | head -n 1)
    [[ $first =~ ^Listening\ on\ http://.+:$2$ ]] && { echo "$1: $first"; return 0; }
    sleep 0.2
  done
  die "stdout of $1 starts with '$first', not 'Listening on http://HOST:$2', after $3s (stdout not flushed?)"
}

# wait_for_health CONTAINER SECONDS
wait_for_health() {
  local deadline=$((SECONDS + $2)) status=
  while [ $SECONDS -lt $deadline ]; do
    status=$(docker inspect -f '{{.State.Health.Status}}' "$1" 2>/dev/null || true)
    [ "$status" = healthy ] && return 0
    [ "$status" = unhealthy ] && break
    sleep 0.5
  done
  docker inspect -f '{{range .State.Health.Log}}{{.ExitCode}}: {{.Output}}{{end}}' "$1" 2>/dev/null | tail -n 3
  die "health of $1 is '$status' after $2s"
}

# stop_and_expect_zero CONTAINER: docker stop (SIGTERM, SIGKILL after 10s) must end it with exit code 0.
stop_and_expect_zero() {
  local t0=$SECONDS code
  timeout 30 docker stop -t 10 "$1" >/dev/null
  code=$(docker inspect -f '{{.State.ExitCode}}' "$1")
  [ "$code" = 0 ] || die "$1 exited with $code after docker stop (137 = killed: SIGTERM not handled)"
  echo "docker stop: exit code 0 after $((SECONDS - t0))s"
}

# ---- 1. binary ----------------------------------------------------------------------------------------------------
step "swift build -c release --static-swift-stdlib --product stubserver (scratch $SCRATCH)"
cd "$ROOT"
BUILD=(swift build -c release --static-swift-stdlib --product stubserver -Xlinker -s --scratch-path "$SCRATCH")
timeout 1800 "${BUILD[@]}" >"$WORK/build.log" 2>&1 || { tail -n 40 "$WORK/build.log"; die "swift build failed"; }
tail -n 1 "$WORK/build.log"
BIN="$(timeout 120 "${BUILD[@]}" --show-bin-path)/stubserver"
[ -x "$BIN" ] || die "no binary at $BIN"
echo "$BIN: $(wc -c < "$BIN") bytes"
ldd "$BIN" | tee "$WORK/ldd"
# Allowed: glibc (libc, libm, the loader, vdso) and the C++ runtime every Debian base has (libstdc++6, libgcc-s1).
if grep -vE '^\s*(linux-vdso\.so|/lib64/ld-linux|lib(c|m|pthread|dl|rt|util|stdc\+\+|gcc_s)\.so)' "$WORK/ldd" | grep -q .; then
  die "the binary needs more than glibc and libstdc++: $(grep -vE 'linux-vdso|ld-linux|lib(c|m|pthread|dl|rt|util|stdc\+\+|gcc_s)\.so' "$WORK/ldd" | tr '\n' ' ')"
fi

# ---- 2. daemon ----------------------------------------------------------------------------------------------------
step "Docker daemon"
command -v docker >/dev/null || die "no docker client (apt-get install -y docker.io docker-compose debootstrap)"
if [ -z "${DOCKER_HOST:-}" ] && ! timeout 10 docker info >/dev/null 2>&1; then
  export DOCKER_HOST=unix:///tmp/docker.sock
fi
if timeout 10 docker info >/dev/null 2>&1; then
  echo "using the daemon at ${DOCKER_HOST:-the default socket}"
else
  command -v dockerd >/dev/null || die "no daemon answers and there is no dockerd to start"
  [ "${DOCKER_HOST}" = unix:///tmp/docker.sock ] || die "no daemon answers at $DOCKER_HOST"
  # Its own daemon: no bridge, no iptables (host networking only), everything under /tmp.
  dockerd --bridge=none --iptables=false --ip-forward=false --data-root /tmp/docker-data \
    -H unix:///tmp/docker.sock --pidfile /tmp/docker.pid --exec-root /tmp/docker-exec >/tmp/dockerd.log 2>&1 &
  DOCKERD_PID=$!
  for _ in $(seq 1 60); do timeout 5 docker info >/dev/null 2>&1 && break; sleep 0.5; done
  timeout 5 docker info >/dev/null 2>&1 || { tail -n 20 /tmp/dockerd.log; die "dockerd did not come up in 30s"; }
  echo "started dockerd (pid $DOCKERD_PID, log /tmp/dockerd.log)"
fi
if docker compose version >/dev/null 2>&1; then COMPOSE_CMD=(docker compose)
elif command -v docker-compose >/dev/null; then COMPOSE_CMD=(docker-compose)
else die "neither 'docker compose' nor docker-compose is installed"; fi

# ---- 3. base image ------------------------------------------------------------------------------------------------
step "base image $BASE_IMAGE"
if timeout 30 docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  echo "present"
elif timeout 300 docker pull "$BASE_IMAGE" >/dev/null 2>&1; then
  echo "pulled"
else
  echo "cannot pull; building it with debootstrap (minbase) and docker import"
  command -v debootstrap >/dev/null || die "no debootstrap (apt-get install -y debootstrap)"
  ROOTFS=$CACHE/rootfs-bookworm
  if [ ! -f "$CACHE/rootfs-bookworm.done" ]; then
    rm -rf "$ROOTFS"; mkdir -p "$CACHE"
    timeout 900 debootstrap --variant=minbase bookworm "$ROOTFS" http://deb.debian.org/debian >"$CACHE/debootstrap.log" 2>&1 \
      || { tail -n 20 "$CACHE/debootstrap.log"; die "debootstrap failed"; }
    touch "$CACHE/rootfs-bookworm.done"
  fi
  # Like the real slim image: no apt lists, no downloaded .debs.
  tar -C "$ROOTFS" --exclude='./var/cache/apt/archives/*.deb' --exclude='./var/lib/apt/lists/*' -c . \
    | timeout 300 docker import -c 'CMD ["bash"]' - "$BASE_IMAGE" >/dev/null
  echo "imported"
fi

# ---- 4. image -----------------------------------------------------------------------------------------------------
step "docker build -f docker/Dockerfile.prebuilt -t $IMAGE"
runtime_block() { sed -n '/^# ---- runtime:/,/^# ---- end runtime/p' "$1"; }
[ -n "$(runtime_block "$ROOT/docker/Dockerfile")" ] || die "no '# ---- runtime:' block in docker/Dockerfile"
diff <(runtime_block "$ROOT/docker/Dockerfile") <(runtime_block "$ROOT/docker/Dockerfile.prebuilt") \
  || die "the runtime blocks of docker/Dockerfile and docker/Dockerfile.prebuilt differ"
mkdir "$WORK/context"
cp "$BIN" "$WORK/context/stubserver"
timeout 600 docker build --network host -q -f "$ROOT/docker/Dockerfile.prebuilt" -t "$IMAGE" "$WORK/context"
docker image inspect -f 'size {{.Size}} bytes, user {{.Config.User}}, entrypoint {{.Config.Entrypoint}}' "$IMAGE"
timeout 60 docker run --rm --network host --entrypoint ldd "$IMAGE" /usr/local/bin/stubserver | grep -q 'not found' \
  && die "a library is missing in the image"

# ---- 5. docker run ------------------------------------------------------------------------------------------------
PORT=$(free_port)
step "docker run --network host $IMAGE --port $PORT"
timeout 60 docker run -d --name "$NAME" --network host -v "$ROOT/Stubs:/stubs:ro" "$IMAGE" --port "$PORT" >/dev/null
wait_for_port "$PORT" 30 "$NAME"
wait_for_listening_line "$NAME" "$PORT" 10
timeout 120 bash "$ROOT/Stubs/check-against-wiremock.sh" "http://127.0.0.1:$PORT" | tail -n 5
wait_for_health "$NAME" 40
echo "healthy: $(docker inspect -f '{{with index .State.Health.Log 0}}{{.Output}}{{end}}' "$NAME" | tr -d '\n')"
stop_and_expect_zero "$NAME"
timeout 30 docker rm "$NAME" >/dev/null

# ---- 6. docker compose --------------------------------------------------------------------------------------------
PORT=$(free_port)
step "${COMPOSE_CMD[*]} -f docker/docker-compose.yml up -d (port $PORT)"
export STUBSERVER_IMAGE=$IMAGE STUBSERVER_PORT=$PORT
COMPOSE=("${COMPOSE_CMD[@]}" -f "$ROOT/docker/docker-compose.yml" -p "$PROJECT")
timeout 120 "${COMPOSE[@]}" up -d --no-build
CID=$(timeout 30 "${COMPOSE[@]}" ps -q stubserver)
[ -n "$CID" ] || die "compose started no stubserver container"
wait_for_port "$PORT" 30 "$CID"
wait_for_listening_line "$CID" "$PORT" 10
timeout 120 bash "$ROOT/Stubs/check-against-wiremock.sh" "http://127.0.0.1:$PORT" | tail -n 5
wait_for_health "$CID" 40
stop_and_expect_zero "$CID"
timeout 60 "${COMPOSE[@]}" down
COMPOSE=()
