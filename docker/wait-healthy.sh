#!/usr/bin/env bash
# Waits until a container's HEALTHCHECK says healthy. Fails fast: as soon as the container exits (e.g. exit 3 on a
# bad stub), turns unhealthy, or the time is up, it prints the container's state and logs and exits 1.
#
#   docker/wait-healthy.sh CONTAINER [SECONDS]          # default 60 s
#   docker/wait-healthy.sh "$(docker compose ps -q stubserver)" 30
#
# Exit codes: 0 healthy, 1 exited/unhealthy/timed out, 2 usage or no such container. Needs only bash and docker.
set -uo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] && [ -n "$1" ] || { echo "usage: $0 CONTAINER [SECONDS]" >&2; exit 2; }
CONTAINER=$1 LIMIT=${2:-60}
started=$SECONDS

fail() {
  echo "wait-healthy: $CONTAINER $1 after $((SECONDS - started)) s" >&2
  docker inspect -f '{{range .State.Health.Log}}health check: exit {{.ExitCode}}: {{.Output}}{{end}}' "$CONTAINER" 2>/dev/null | tail -n 3 >&2
  echo "--- docker logs $CONTAINER (last 50 lines):" >&2
  docker logs --tail 50 "$CONTAINER" >&2 2>&1
  exit 1
}

while :; do
  state=$(docker inspect -f '{{.State.Status}} {{.State.ExitCode}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$CONTAINER" 2>&1) \
    || { echo "wait-healthy: $state" >&2; exit 2; }
  read -r status code health <<<"$state"
  case $status/$health in
    running/healthy) echo "wait-healthy: $CONTAINER healthy after $((SECONDS - started)) s"; exit 0 ;;
    running/unhealthy) fail "is unhealthy" ;;
    running/none) echo "wait-healthy: $CONTAINER has no HEALTHCHECK" >&2; exit 2 ;;
    exited/* | dead/*) fail "exited with code $code" ;;
  esac
  [ $((SECONDS - started)) -lt "$LIMIT" ] || fail "is still '$status/$health'"
  sleep 0.2
done
