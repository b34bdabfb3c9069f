#!/usr/bin/env bash
# Proves the stubserver image works on this machine, end to end, as a CI user would use it:
#
#   1. finds a Docker daemon, or starts its own under /tmp (and stops only that one, by PID, on exit);
#   2. builds the release binary (static Swift runtime, stripped; the Slim trait, as docker/Dockerfile) and stages
#      the image's filesystem with docker/rootfs.sh (binary + its shared libraries); a filesystem missing one of
#      them must FAIL the image build
#      (RUN ["stubserver", "--version"]), so a broken binary never reaches `docker run`;
#   3. makes python:3-slim for the example test service with docker/python-base-image.sh (pulled, or built offline
#      where no registry is reachable: debootstrap minbase + python3, `docker import`); the stubserver image is FROM
#      scratch and needs no base image;
#   4. checks that docker/Dockerfile and docker/Dockerfile.prebuilt share one runtime block, builds the image with
#      docker/Dockerfile.prebuilt, and checks user, labels, health check and that the image holds no shell;
#   5. runs it with --network host on a free port: wait-healthy.sh (time to healthy), the demo checks
#      (Stubs/check-against-wiremock.sh), `stubserver health` inside the container (finds the port itself), the
#      dashboard page and its live feed, idle RSS, `docker stop` → exit 0; then HTTPS: with OpenSSL 3 in the image (a
#      full build, TRAITS=), `--https-port` serves /hello verified with the CA from /__admin/certs/ca.crt; without
#      it (the static Slim binary), `--https-port` fails at start naming OpenSSL's library;
#   6. WireMock's layout (/home/wiremock), WIREMOCK_OPTIONS and STUBSERVER_OPTIONS, a WireMock option refused, WireMock's
#      Testcontainers module for Python (its own flows, host networking), a mounted mappings folder (warned), and a
#      bad stub, which wait-healthy.sh must report fast (exit 1, with the logs);
#   7. docker/docker-compose.yml is valid (`config`); its host-networking twin docker/docker-compose.host.yml runs:
#      stubserver healthy, then the example test service (depends_on: service_healthy) drives the admin API at
#      STUBSERVER_URL; down; then again with STUBSERVER_ADMIN_TOKEN set: the server requires the token (401
#      without), the example test service passes with it and fails without it; down.
#   8. the README's getting-started package (.ci/readme-fresh-package.sh) passes its tests against the image, started
#      with the package's stubs and an admin token, as well as in-process and against the CLI.
#
#   docker/test-image.sh        # needs root (dockerd, debootstrap), swift, curl, python3, docker, docker-compose
#
# Ends with `image size: N bytes` and `healthy after: S s`; exits 0 only when every check passed, 77 when no Docker
# engine can run here (skipped), 1 on a failure.
# Environment: SCRATCH (swift build dir, default /tmp/build-docker), CACHE (default /tmp/stubserver-docker),
# TRAITS (package traits of the binary, default Slim as docker/Dockerfile's; empty for the full executable),
# IMAGE (default stubserver:local), DOCKER_HOST (an existing daemon to use instead of starting one).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
SCRATCH=${SCRATCH:-/tmp/build-docker}
TRAITS=${TRAITS-Slim}
CACHE=${CACHE:-/tmp/stubserver-docker}
IMAGE=${IMAGE:-stubserver:local}
TESTS_IMAGE=stubserver-example-tests:local
NAME=stubserver-test-$$
PROJECT=stubservertest$$
WORK=$(mktemp -d)
DOCKERD_PID=
COMPOSE=()
STARTED=$SECONDS
CHECKS=0

step() { echo; echo "== [$((SECONDS - STARTED))s] $*"; }
die() { echo "FAIL: $*" >&2; exit 1; }
# No Docker engine can run here: exit 77, which .ci/run reports as a skip, not a failure.
skip() { echo "SKIP: $*" >&2; exit 77; }
ok() { CHECKS=$((CHECKS + 1)); echo "ok: $*"; }

cleanup() {
  local code=$?
  set +e
  if [ "$code" != 0 ] && [ "$code" != 77 ] && command -v docker >/dev/null && timeout 10 docker info >/dev/null 2>&1; then
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
  echo; echo "docker/test-image.sh: $(case $code in 0) echo "ok, $CHECKS checks" ;; 77) echo skipped ;; *) echo FAILED ;; esac) after $((SECONDS - STARTED))s"
  exit "$code"
}
trap cleanup EXIT
# A timeout (SIGTERM) or Ctrl-C still runs cleanup, which stops the dockerd this script started.
trap "exit 143" TERM
trap "exit 130" INT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# run_container NAME ARGS…: docker run -d with host networking; the rest are docker run arguments.
run_container() {
  local name=$1; shift
  timeout 60 docker run -d --name "$name" --network host "$@" >/dev/null
}

# logs_contain CONTAINER TEXT: whether the container's logs show TEXT within 10 s (the log is written by its own thread).
logs_contain() {
  local deadline=$((SECONDS + 10))
  while [ $SECONDS -lt $deadline ]; do
    grep -qF -- "$2" <<<"$(timeout 10 docker logs "$1" 2>&1)" && return 0
    sleep 0.2
  done
  return 1
}

# get URL: the body, or die.
get() { curl -sS --max-time 10 "$1"; }

# stop_and_expect_zero CONTAINER: docker stop (SIGTERM, SIGKILL after 10s) must end it with exit code 0.
stop_and_expect_zero() {
  local t0=$SECONDS code
  timeout 30 docker stop -t 10 "$1" >/dev/null
  code=$(docker inspect -f '{{.State.ExitCode}}' "$1")
  [ "$code" = 0 ] || die "$1 exited with $code after docker stop (137 = killed: SIGTERM not handled)"
  ok "docker stop: exit code 0 after $((SECONDS - t0)) s"
}

# ---- 1. daemon (first: with no engine, skip before building) -------------------------------------------------
step "Docker daemon"
command -v docker >/dev/null || skip "no docker client (apt-get install -y docker.io docker-compose debootstrap)"
if [ -z "${DOCKER_HOST:-}" ] && ! timeout 10 docker info >/dev/null 2>&1; then
  export DOCKER_HOST=unix:///tmp/stubserver-dockerd/docker.sock
fi
if timeout 10 docker info >/dev/null 2>&1; then
  echo "using the daemon at ${DOCKER_HOST:-the default socket}"
else
  command -v dockerd >/dev/null || skip "no daemon answers and there is no dockerd to start"
  [ "$DOCKER_HOST" = unix:///tmp/stubserver-dockerd/docker.sock ] || die "no daemon answers at $DOCKER_HOST"
  D=/tmp/stubserver-dockerd
  mkdir -p "$D"
  # Its own daemon: no bridge, no iptables (host networking only), everything under /tmp.
  dockerd --bridge=none --iptables=false --ip-forward=false --ip-masq=false --data-root "$D/data" \
    --exec-root "$D/exec" --pidfile "$D/pid" -H "$DOCKER_HOST" >"$D/dockerd.log" 2>&1 &
  DOCKERD_PID=$!
  for _ in $(seq 1 60); do timeout 5 docker info >/dev/null 2>&1 && break; sleep 0.5; done
  timeout 5 docker info >/dev/null 2>&1 || { tail -n 20 "$D/dockerd.log"; skip "dockerd did not come up in 30s (not root, or no kernel support here)"; }
  echo "started dockerd (pid $DOCKERD_PID, log $D/dockerd.log)"
fi
if docker compose version >/dev/null 2>&1; then COMPOSE_CMD=(docker compose)
elif command -v docker-compose >/dev/null; then COMPOSE_CMD=(docker-compose)
else die "neither 'docker compose' nor docker-compose is installed"; fi

# ---- 2. binary and filesystem -------------------------------------------------------------------------------------
step "swift build -c release --static-swift-stdlib --product stubserver ${TRAITS:+--traits $TRAITS }(scratch $SCRATCH)"
BUILD=(swift build -c release --static-swift-stdlib --product stubserver -Xlinker -s --scratch-path "$SCRATCH")
[ -z "$TRAITS" ] || BUILD+=(--traits "$TRAITS")
# The Slim executable is fully static, as docker/Dockerfile links it.
[ "$TRAITS" != Slim ] || BUILD+=(-Xswiftc -static-executable)
if ! timeout 1800 "${BUILD[@]}" >"$WORK/build.log" 2>&1; then
  tail -n 20 "$WORK/build.log"
  grep -qE "unable to find library -lcurl|undefined reference to .curl_" "$WORK/build.log" \
    && die "swift build failed: the static Swift runtime links libcurl (apt-get install -y libcurl4-openssl-dev)"
  die "swift build failed"
fi
BIN="$(timeout 120 "${BUILD[@]}" --show-bin-path)/stubserver"
echo "$BIN: $(wc -c < "$BIN") bytes; it loads: $(ldd "$BIN" 2>&1 | awk '/not a dynamic/ { print "nothing (static)"; next } { print $1 }' | tr '\n' ' ')"
bash "$ROOT/docker/rootfs.sh" "$BIN" "$WORK/rootfs"

# ---- 3. the example test service's base image ----------------------------------------------------------------------
step "base image python:3-slim (for the example test service only): docker/python-base-image.sh"
base_status=0
bash "$ROOT/docker/python-base-image.sh" "$CACHE" || base_status=$?
case $base_status in
  0) ;;
  # The Debian mirror is infrastructure, not the product: say so loudly and skip rather than fail.
  77) skip "the test service's base image could not be built offline (is deb.debian.org reachable?)" ;;
  *) die "docker/python-base-image.sh exited $base_status" ;;
esac

# ---- 4. image -----------------------------------------------------------------------------------------------------
step "docker build -f docker/Dockerfile.prebuilt -t $IMAGE"
runtime_block() { sed -n '/^# ---- runtime:/,/^# ---- end runtime/p' "$1"; }
[ -n "$(runtime_block "$ROOT/docker/Dockerfile")" ] || die "no '# ---- runtime:' block in docker/Dockerfile"
diff <(runtime_block "$ROOT/docker/Dockerfile") <(runtime_block "$ROOT/docker/Dockerfile.prebuilt") \
  || die "the runtime blocks of docker/Dockerfile and docker/Dockerfile.prebuilt differ"
ok "docker/Dockerfile and docker/Dockerfile.prebuilt share the runtime block"
# A filesystem missing a library (or, for the static Slim binary, which loads none, a binary cut short): the build
# must fail at RUN ["stubserver", "--version"].
cp -a "$WORK/rootfs" "$WORK/broken"
MISSING=$(find "$WORK/broken" -name 'lib*.so*' ! -name 'ld-linux*' | sort | head -n 1)
if [ -n "$MISSING" ]; then
  rm "$MISSING"
else
  case "$(ldd "$BIN" 2>&1 || true)" in
    *"not a dynamic executable"*) ;;
    *) die "the staged filesystem holds no shared library to leave out" ;;
  esac
  head -c 4096 "$BIN" > "$WORK/broken/usr/local/bin/stubserver"
fi
if timeout 300 docker build --network host -q -f "$ROOT/docker/Dockerfile.prebuilt" -t stubserver:broken-test "$WORK/broken" >"$WORK/broken.log" 2>&1; then
  docker rmi stubserver:broken-test >/dev/null 2>&1; die "an image whose binary cannot start was built"
fi
ok "a binary that cannot start fails the build: $(grep -m1 -oE 'error while loading shared libraries[^)]*|exec format error' "$WORK/broken.log" || tail -n 1 "$WORK/broken.log")"
timeout 600 docker build --network host -q --build-arg VERSION="$("$BIN" --version | cut -d' ' -f2)" \
  -f "$ROOT/docker/Dockerfile.prebuilt" -t "$IMAGE" "$WORK/rootfs" >/dev/null
SIZE=$(docker image inspect -f '{{.Size}}' "$IMAGE")
[ "$(docker image inspect -f '{{.Config.User}}' "$IMAGE")" = 10001:10001 ] || die "the image does not run as 10001"
[ "$(docker image inspect -f '{{index .Config.Labels "org.opencontainers.image.title"}}' "$IMAGE")" = stubserver ] || die "no OCI title label"
[ "$(docker image inspect -f '{{.Config.Healthcheck.Test}} {{.Config.Healthcheck.Interval}}' "$IMAGE")" = "[CMD stubserver health] 1s" ] \
  || die "health check is $(docker image inspect -f '{{.Config.Healthcheck}}' "$IMAGE")"
ok "image $IMAGE: $SIZE bytes, user 10001, OCI labels, HEALTHCHECK stubserver health every 1s"
timeout 60 docker run --rm --network host --entrypoint /bin/sh "$IMAGE" -c true >/dev/null 2>&1 && die "the image has a shell"
ok "no shell in the image"

# ---- 5. docker run ------------------------------------------------------------------------------------------------
PORT=$(free_port)
step "docker run --network host $IMAGE --port $PORT"
t0=$(date +%s.%N)
run_container "$NAME" -v "$ROOT/Stubs:/stubs:ro" "$IMAGE" --port "$PORT"
bash "$ROOT/docker/wait-healthy.sh" "$NAME" 60 >/dev/null || die "$NAME did not turn healthy"
HEALTHY_AFTER=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$t0" "$(date +%s.%N)")
ok "healthy after $HEALTHY_AFTER s (from docker run)"
[[ $(timeout 10 docker logs "$NAME" 2>/dev/null | head -n 1) =~ ^Listening\ on\ http://0\.0\.0\.0:$PORT$ ]] || die "first stdout line is not 'Listening on http://0.0.0.0:$PORT'"
ok "first line: Listening on http://0.0.0.0:$PORT"
timeout 120 bash "$ROOT/Stubs/check-against-wiremock.sh" "http://127.0.0.1:$PORT" | tail -n 1
ok "the demo checks pass against the container"
grep -q "^healthy: http://127.0.0.1:$PORT/__admin/health$" <<<"$(timeout 30 docker exec "$NAME" stubserver health)" \
  || die "stubserver health inside the container did not find port $PORT"
ok "stubserver health inside the container probes http://127.0.0.1:$PORT (read from the server's command line)"
timeout 10 "$BIN" health "http://127.0.0.1:$PORT" >/dev/null || die "stubserver health from the host failed"
curl -sS --max-time 10 -D "$WORK/dashboard.head" -o "$WORK/dashboard.html" "http://127.0.0.1:$PORT/__admin/dashboard"
grep -qi "^content-security-policy: default-src 'none'" "$WORK/dashboard.head" || die "the dashboard has no CSP"
grep -q 'src="/__admin/dashboard/app.js"' "$WORK/dashboard.html" || die "the dashboard page has no script"
timeout 10 curl -sN --max-time 3 "http://127.0.0.1:$PORT/__admin/stubserver/requests/live" > "$WORK/feed.txt" &
FEED_READER=$!
sleep 1
get "http://127.0.0.1:$PORT/dashboard-check" >/dev/null || true
wait "$FEED_READER" || true
grep -q '^event: hello' "$WORK/feed.txt" && grep -q '"url":"/dashboard-check"' "$WORK/feed.txt" \
  || die "the live feed did not stream the request: $(head -c 300 "$WORK/feed.txt")"
ok "the dashboard: the page (with its CSP) and its live feed, which streamed a request sent after it opened"
PYTHON_WS=${STUBSERVER_PYTHON_WEBSOCKETS:-python3}
if command -v chromium >/dev/null && "$PYTHON_WS" -c 'import websockets.sync.client' 2>/dev/null; then
  mkdir -p "$ROOT/.ci/artifacts/dashboard"
  (cd "$ROOT/.ci/browser" && timeout 120 "$PYTHON_WS" dashboard_at.py "http://127.0.0.1:$PORT" \
    "$ROOT/.ci/artifacts/dashboard/docker-laptop.png") || die "the dashboard in Chromium against the container failed"
  ok "the dashboard in headless Chromium against the container: a request appeared live and opened"
else
  echo "note: no chromium or no Python websockets: the dashboard was not opened in a browser against the container"
fi
sleep 2
PID=$(docker inspect -f '{{.State.Pid}}' "$NAME")
RSS_KB=$(awk '/^VmRSS:/ { print $2 }' "/proc/$PID/status")
ok "idle RSS in the container: $RSS_KB KiB (VmRSS of pid $PID after the demo checks and 2 s idle)"
stop_and_expect_zero "$NAME"
timeout 30 docker rm "$NAME" >/dev/null

# ---- 5b. HTTPS (--https-port): served where the image holds OpenSSL 3, else a clear failure at start ---------------
PORT=$(free_port); TLS_PORT=$(free_port)
if find "$WORK/rootfs" -name libssl.so.3 | grep -q .; then
  step "HTTPS: docker run $IMAGE --port $PORT --https-port $TLS_PORT --ca-dir /tmp/ca (OpenSSL 3 is in the image)"
  run_container "$NAME" -v "$ROOT/Stubs:/stubs:ro" "$IMAGE" --port "$PORT" --https-port "$TLS_PORT" --ca-dir /tmp/ca
  bash "$ROOT/docker/wait-healthy.sh" "$NAME" 60 >/dev/null || die "$NAME with --https-port did not turn healthy"
  logs_contain "$NAME" "Listening on https://0.0.0.0:$TLS_PORT" || die "no 'Listening on https://0.0.0.0:$TLS_PORT' line"
  # The CA the server made in the container, served over plain HTTP; then HTTPS verified against it, by name and IP.
  curl -sS --max-time 10 -o "$WORK/ca.crt" "http://127.0.0.1:$PORT/__admin/certs/ca.crt"
  grep -q "BEGIN CERTIFICATE" "$WORK/ca.crt" || die "GET /__admin/certs/ca.crt served no certificate"
  for host in localhost 127.0.0.1; do
    [ "$(curl -sS --max-time 10 --cacert "$WORK/ca.crt" "https://$host:$TLS_PORT/hello")" = "Hello, stubserver" ] \
      || die "https://$host:$TLS_PORT/hello, verified with the served CA, did not answer"
  done
  ok "HTTPS in the image: https://localhost:$TLS_PORT/hello verified with the CA from /__admin/certs/ca.crt"
  stop_and_expect_zero "$NAME"
  timeout 30 docker rm "$NAME" >/dev/null
else
  step "HTTPS: the image has no OpenSSL 3 (the fully static Slim binary loads none): --https-port must fail at start"
  status=0
  # --ca-dir: the user has no home folder in the image, and a CA folder that cannot be made is reported first.
  timeout 60 docker run --rm --network host -v "$ROOT/Stubs:/stubs:ro" "$IMAGE" --port "$PORT" --https-port "$TLS_PORT" \
    --ca-dir /tmp/ca >"$WORK/https.log" 2>&1 || status=$?
  [ "$status" != 0 ] && [ "$status" != 124 ] || { cat "$WORK/https.log"; die "--https-port in an image without OpenSSL exited $status"; }
  grep -Eq "libssl|libcrypto" "$WORK/https.log" || { cat "$WORK/https.log"; die "--https-port failed without naming OpenSSL's library"; }
  grep -q "^Listening on https" "$WORK/https.log" && die "--https-port printed a Listening line without OpenSSL"
  ok "--https-port without OpenSSL: exit $status at start: $(grep -m1 -E "libssl|libcrypto" "$WORK/https.log")"
fi

# ---- 6. layouts, options and a bad stub ---------------------------------------------------------------------------
PORT=$(free_port)
step "WireMock's layout (-v Stubs:/home/wiremock), WIREMOCK_OPTIONS (--port $PORT) and STUBSERVER_OPTIONS (--verbose)"
run_container "$NAME" -v "$ROOT/Stubs:/home/wiremock:ro" -e WIREMOCK_OPTIONS="--port $PORT" \
  -e STUBSERVER_OPTIONS="--verbose" "$IMAGE" ""
bash "$ROOT/docker/wait-healthy.sh" "$NAME" 60 >/dev/null || die "$NAME did not turn healthy"
[ "$(get "http://127.0.0.1:$PORT/hello")" = "Hello, stubserver" ] || die "/hello not served from /home/wiremock"
logs_contain "$NAME" "GET /hello → 200" || die "--verbose from STUBSERVER_OPTIONS did not log"
ok "/home/wiremock served (a link to /stubs); an empty argument skipped; WIREMOCK_OPTIONS set the port (health check followed it), STUBSERVER_OPTIONS --verbose"
stop_and_expect_zero "$NAME"; timeout 30 docker rm "$NAME" >/dev/null

step "a WireMock option stubserver does not serve (--container-threads) stops it at start, saying so"
status=0
timeout 60 docker run --rm --network host "$IMAGE" --port "$(free_port)" --container-threads 50 >"$WORK/wm-option.log" 2>&1 || status=$?
[ "$status" = 2 ] && grep -q "container-threads is a WireMock option stubserver does not support" "$WORK/wm-option.log" \
  || { cat "$WORK/wm-option.log"; die "--container-threads exited $status without saying it is not supported"; }
ok "--container-threads: exit 2: $(grep -m1 -o "container-threads is a WireMock option[^:]*" "$WORK/wm-option.log")"

step "WireMock's Testcontainers module for Python (PyPI wiremock 2.7.0, testcontainers): its own flows against $IMAGE"
# docker/testcontainers/test_wiremock_python_module.py says what it changes of the module's flow (host networking).
TC_VENV="$WORK/tc-venv"
if python3 -m venv "$TC_VENV" >/dev/null 2>&1 \
    && timeout 300 "$TC_VENV/bin/pip" install -q wiremock==2.7.0 testcontainers==4.15.0 >"$WORK/tc-pip.log" 2>&1; then
  (cd "$ROOT/docker/testcontainers" && STUBSERVER_IMAGE="$IMAGE" timeout 600 "$TC_VENV/bin/python" -m unittest -v \
    test_wiremock_python_module) >"$WORK/tc.log" 2>&1 || { cat "$WORK/tc.log"; die "WireMock's Testcontainers module failed against $IMAGE"; }
  grep -E '\.\.\. ok$' "$WORK/tc.log"
  ok "WireMock's Testcontainers module for Python: $(tail -n 3 "$WORK/tc.log" | grep -E '^(OK|Ran)' | tr '\n' ' ')"
else
  echo "SKIPPED: could not install wiremock and testcontainers from PyPI: $(tail -n 1 "$WORK/tc-pip.log" 2>/dev/null)"
fi

PORT=$(free_port)
step "a mappings folder mounted as /stubs: served with a warning that says so"
run_container "$NAME" -v "$ROOT/Stubs/mappings:/stubs:ro" "$IMAGE" --port "$PORT"
bash "$ROOT/docker/wait-healthy.sh" "$NAME" 60 >/dev/null || die "$NAME did not turn healthy"
logs_contain "$NAME" "move them into /stubs/mappings/" || die "no warning for a mounted mappings folder"
LOGS=$(timeout 10 docker logs "$NAME" 2>&1)
ok "warning: $(grep -m1 -o "'/stubs' has no mappings/ folder[^;]*" <<<"$LOGS")"
timeout 30 docker rm -f "$NAME" >/dev/null

step "a bad stub: wait-healthy.sh fails fast with the logs"
mkdir -p "$WORK/bad/mappings"; chmod -R a+rX "$WORK/bad"
echo '{"request": {"method": "GET", "url": "/x"}, "response": {"status": "two hundred"}}' > "$WORK/bad/mappings/bad.json"
chmod a+r "$WORK/bad/mappings/bad.json"
run_container "$NAME" -v "$WORK/bad:/stubs:ro" "$IMAGE" --port "$(free_port)"
t0=$SECONDS
if bash "$ROOT/docker/wait-healthy.sh" "$NAME" 60 >"$WORK/wait.log" 2>&1; then die "wait-healthy.sh passed a dead server"; fi
grep -q "exited with code 3" "$WORK/wait.log" && grep -q "bad.json" "$WORK/wait.log" || { cat "$WORK/wait.log"; die "wait-healthy.sh did not report the exit and the logs"; }
ok "wait-healthy.sh: exit 1 after $((SECONDS - t0)) s: $(grep -m1 'exited with code' "$WORK/wait.log"); the log names bad.json"
timeout 30 docker rm -f "$NAME" >/dev/null

# ---- 7. docker compose --------------------------------------------------------------------------------------------
PORT=$(free_port)
step "${COMPOSE_CMD[*]} -f docker/docker-compose.host.yml (port $PORT)"
export STUBSERVER_IMAGE=$IMAGE STUBSERVER_PORT=$PORT STUBSERVER_TESTS_IMAGE=$TESTS_IMAGE
unset STUBSERVER_ADMIN_TOKEN  # first without a token, whatever this shell had
CONFIG=$(timeout 60 "${COMPOSE_CMD[@]}" -f "$ROOT/docker/docker-compose.yml" config) || die "docker/docker-compose.yml is not valid"
grep -Eq "published: $PORT\$|$PORT:8080" <<<"$CONFIG" || die "docker/docker-compose.yml does not publish STUBSERVER_PORT"
ok "docker/docker-compose.yml is valid and publishes $PORT:8080"
COMPOSE=("${COMPOSE_CMD[@]}" -f "$ROOT/docker/docker-compose.host.yml" -p "$PROJECT")
timeout 300 "${COMPOSE[@]}" build tests >/dev/null
t0=$(date +%s.%N)
timeout 120 "${COMPOSE[@]}" up -d --no-build stubserver
CID=$(timeout 30 "${COMPOSE[@]}" ps -q stubserver)
[ -n "$CID" ] || die "compose started no stubserver container"
bash "$ROOT/docker/wait-healthy.sh" "$CID" 60 >/dev/null || die "the compose service did not turn healthy"
COMPOSE_HEALTHY=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$t0" "$(date +%s.%N)")
ok "compose service healthy after $COMPOSE_HEALTHY s (from up -d)"
timeout 120 bash "$ROOT/Stubs/check-against-wiremock.sh" "http://127.0.0.1:$PORT" | tail -n 1
timeout 180 "${COMPOSE[@]}" run --rm tests | tee "$WORK/tests.log"
grep -q "all checks passed" "$WORK/tests.log" || die "the example test service failed"
ok "the example test service (depends_on: service_healthy) drove the admin API at STUBSERVER_URL"
stop_and_expect_zero "$CID"
timeout 60 "${COMPOSE[@]}" down >/dev/null 2>&1

# The same with an admin token: STUBSERVER_ADMIN_TOKEN in compose's environment reaches both services.
step "${COMPOSE_CMD[*]} -f docker/docker-compose.host.yml with STUBSERVER_ADMIN_TOKEN (port $PORT)"
export STUBSERVER_ADMIN_TOKEN=compose-token-$$
timeout 120 "${COMPOSE[@]}" up -d --no-build stubserver
CID=$(timeout 30 "${COMPOSE[@]}" ps -q stubserver)
[ -n "$CID" ] || die "compose started no stubserver container"
bash "$ROOT/docker/wait-healthy.sh" "$CID" 60 >/dev/null || die "the compose service with a token did not turn healthy"
STATUS=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "http://127.0.0.1:$PORT/__admin/mappings")
[ "$STATUS" = 401 ] || die "with STUBSERVER_ADMIN_TOKEN set, GET /__admin/mappings without it answered $STATUS, not 401"
ok "the compose service took STUBSERVER_ADMIN_TOKEN: /__admin/mappings without it is 401; healthy (the probe needs none)"
timeout 180 "${COMPOSE[@]}" run --rm tests | tee "$WORK/tests-token.log"
grep -q "all checks passed" "$WORK/tests-token.log" && grep -q "with the admin token" "$WORK/tests-token.log" \
  || die "the example test service failed against the server with a token"
ok "the example test service passed STUBSERVER_ADMIN_TOKEN through and its calls were accepted"
if timeout 180 "${COMPOSE[@]}" run --rm --no-deps -e STUBSERVER_ADMIN_TOKEN= tests >"$WORK/tests-no-token.log" 2>&1; then
  cat "$WORK/tests-no-token.log"; die "the example test service passed without the token against a server that has one"
fi
grep -q "401" "$WORK/tests-no-token.log" || { cat "$WORK/tests-no-token.log"; die "without the token the tests failed, but not with 401"; }
ok "without the token the example test service fails: $(grep -m1 FAIL "$WORK/tests-no-token.log")"
stop_and_expect_zero "$CID"
timeout 60 "${COMPOSE[@]}" down >/dev/null 2>&1
unset STUBSERVER_ADMIN_TOKEN
COMPOSE=()

# ---- 8. the README's getting-started package against the container -------------------------------------------------
step "the README's package (.ci/readme-fresh-package.sh): its tests against this image, with an admin token"
# README_FRESH_DIR (set by .ci/run) reuses the package .ci/run already built; otherwise it is built here.
FRESH_DIR="${README_FRESH_DIR:-}" STUBSERVER_DOCKER_IMAGE="$IMAGE" timeout 900 bash "$ROOT/.ci/readme-fresh-package.sh" \
  | tee "$WORK/readme.log" | grep "^readme-fresh-package:"
grep -q "against the container .* with --admin-token" "$WORK/readme.log" && grep -q "readme-fresh-package: OK" "$WORK/readme.log" \
  || die "the README's package failed against the container"
ok "the README's tests pass in-process, against the CLI and against the container, with a token"

echo
echo "all $CHECKS checks passed"
echo "image size: $SIZE bytes"
echo "healthy after: $HEALTHY_AFTER s"
