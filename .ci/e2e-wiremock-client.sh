#!/usr/bin/env bash
# WireMock's own admin clients against a stubserver binary:
# - the Python `wiremock` client (pip wiremock==2.7.0, in a venv): .ci/wiremock-client-e2e.py, on a copy of Stubs/;
# - WireMock's Java client (com.github.tomakehurst.wiremock.client.WireMock, from the 2.35.1 jar that package
#   bundles): .ci/java-client/WireMockClientCheck.java, run first against the jar itself (so every expectation in it
#   is WireMock's), then against the binary, each on a fresh root directory and restarted once (what persisted).
# Usage: .ci/e2e-wiremock-client.sh PATH/TO/stubserver
set -euo pipefail
binary=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
started=$(date +%s)

# A failed install fails this step (set -e): the check must never pass by not running.
if ! python3 -m venv "$work/venv" 2>/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
  python3 -m venv "$work/venv"
fi
"$work/venv/bin/pip" install --quiet --disable-pip-version-check wiremock==2.7.0
"$work/venv/bin/python" -c 'import wiremock.client' || { echo "FAIL: the wiremock package does not import" >&2; exit 1; }
jar=$(find "$work/venv" -name 'wiremock-standalone-2.35.1.jar' | head -1)
[ -n "$jar" ] || { echo "FAIL: wiremock==2.7.0 has no wiremock-standalone-2.35.1.jar" >&2; exit 1; }
if ! command -v javac >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jdk-headless
fi
javac -cp "$jar" -d "$work/java-client" "$here/java-client/WireMockClientCheck.java"

# Starts the binary on ROOT (port 0) and sets server_pid and url.
start_stubserver() {
  "$binary" --stubs "$1" --port 0 --log-unmatched none > "$work/stdout" 2> "$work/stderr" &
  server_pid=$!
  url=
  for _ in $(seq 1 100); do
    url=$(sed -n 's/^Listening on //p' "$work/stdout" | head -1)
    [ -n "$url" ] && return
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "FAIL: stubserver did not start"; cat "$work/stderr"; exit 1
}

# Starts the jar on ROOT (on a free port) and sets server_pid and url once it answers.
start_wiremock() {
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  java -jar "$jar" --port "$port" --bind-address 127.0.0.1 --root-dir "$1" > "$work/wiremock.log" 2>&1 &
  server_pid=$!
  url=http://127.0.0.1:$port
  for _ in $(seq 1 300); do
    curl -fs -o /dev/null "$url/__admin/mappings" && return
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "FAIL: the WireMock jar did not start"; cat "$work/wiremock.log"; exit 1
}

# Waits for the server to end after POST /__admin/shutdown; fails unless it exits 0.
expect_exit_0() {
  local status=0
  wait "$server_pid" || status=$?
  server_pid=
  [ "$status" -eq 0 ] || { echo "FAIL: $1 exited $status after /__admin/shutdown" >&2; exit 1; }
  echo "ok: POST /__admin/shutdown → $1 exits 0"
}

# The Java client on a fresh root: every call, a restart on the same root, what persisted, shutdown.
java_check() {
  local kind=$1 root="$work/java-$1"
  local check=(java -cp "$jar:$work/java-client" WireMockClientCheck)
  "${check[@]}" setup "$root"
  "start_$kind" "$root"
  "${check[@]}" main "$url" "$root" "$kind"
  kill "$server_pid"
  wait "$server_pid" || true
  "start_$kind" "$root"
  "${check[@]}" restarted "$url" "$root" "$kind"
  expect_exit_0 "$kind"
}

cp -R "$here/../Stubs" "$work/python-stubs"
start_stubserver "$work/python-stubs"
"$work/venv/bin/python" "$here/wiremock-client-e2e.py" "$url" "$work/python-stubs"
# POST /__admin/shutdown ends the process with exit 0.
curl -fsS -X POST "$url/__admin/shutdown" > /dev/null
expect_exit_0 stubserver

java_check wiremock
java_check stubserver
echo "wiremock clients end-to-end: passed in $(( $(date +%s) - started )) s"
