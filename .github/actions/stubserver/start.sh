#!/usr/bin/env bash
# Starts stubserver in the background for the later steps of a job, waits until it answers GET /__admin/health
# (bounded), and hands its URL, PID and log file on. The shell half of the composite action beside it
# (action.yml); runs on macOS and Linux, so .ci/github-actions-check.sh tests it on Linux.
#
# Inputs (environment; action.yml maps its inputs onto them):
#   STUBSERVER_ACTION_BINARY   a stubserver executable; empty: build one with
#                              `swift build -c release --product stubserver` in STUBSERVER_ACTION_PACKAGE
#   STUBSERVER_ACTION_PACKAGE  the stubserver package to build (default: the repository this script is in)
#   STUBSERVER_ACTION_STUBS    the stubs directory (default: Stubs)
#   STUBSERVER_ACTION_PORT     the port (default: 8080; 0 picks a free one, read back from the server's first line)
#   STUBSERVER_ACTION_ARGS     more options, split at white space (no quoting), e.g. `--verbose --host-alias a.example`
#   STUBSERVER_ACTION_TIMEOUT  seconds to wait for health (default: 60)
#   STUBSERVER_ACTION_LOG      the log file, stdout and stderr (default: $RUNNER_TEMP/stubserver.log, else under $TMPDIR)
#   STUBSERVER_ACTION_EXPORT   true (default): also export STUBSERVER_URL to $GITHUB_ENV, which makes the StubTesting
#                              helpers of later steps use this server instead of starting their own
# Outputs: url, pid, log, binary in $GITHUB_OUTPUT; STUBSERVER_PID and STUBSERVER_LOG (and STUBSERVER_URL, see
# above) in $GITHUB_ENV, read by the stop action. Either file may be unset (a local run): the lines are printed.
# Exit: 0 healthy; 1 did not build, exited, or was not healthy in time (the log's tail is printed, the process killed).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
package=${STUBSERVER_ACTION_PACKAGE:-$here/../../..}
binary=${STUBSERVER_ACTION_BINARY:-}
stubs=${STUBSERVER_ACTION_STUBS:-Stubs}
port=${STUBSERVER_ACTION_PORT:-8080}
timeout=${STUBSERVER_ACTION_TIMEOUT:-60}
export_url=${STUBSERVER_ACTION_EXPORT:-true}
log=${STUBSERVER_ACTION_LOG:-}
if [ -z "$log" ]; then
  log_dir=${RUNNER_TEMP:-$(mktemp -d)}
  log="$log_dir/stubserver.log"
fi
extra=()
if [ -n "${STUBSERVER_ACTION_ARGS:-}" ]; then
  read -r -a extra <<<"$STUBSERVER_ACTION_ARGS"
fi

fail() {
  echo "::error title=stubserver::$1"
  exit 1
}
# The log of a server that failed: whole up to 80 lines, else its first 20 (a start error, before any usage text)
# and last 50.
show_log() {
  echo "---- $log ----"
  if [ "$(wc -l <"$log")" -le 80 ]; then
    cat "$log"
  else
    head -n 20 "$log"
    echo "[…]"
    tail -n 50 "$log"
  fi
}

case $port in
  '' | *[!0-9]*) fail "port must be a number from 0 to 65535, got '$port'" ;;
esac
case $timeout in
  '' | *[!0-9]* | 0) fail "timeout must be a whole number of seconds above 0, got '$timeout'" ;;
esac
[ -d "$stubs" ] || fail "the stubs directory '$stubs' does not exist (working directory: $PWD)"

if [ -z "$binary" ]; then
  echo "Building stubserver (release) in $package"
  swift build --package-path "$package" -c release --product stubserver
  binary="$(swift build --package-path "$package" -c release --show-bin-path)/stubserver"
fi
[ -x "$binary" ] || fail "no stubserver executable at '$binary'"
# Absolute, so the stop step and later steps find it whatever their working directory.
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
mkdir -p "$(dirname "$log")"
log="$(cd "$(dirname "$log")" && pwd)/$(basename "$log")"

# In the background with stdin from /dev/null and both streams in the log, so the step ends while the server goes
# on serving the next steps (no terminal, so no SIGHUP when the step's shell exits; the runner kills what is left
# over when the job ends). No nohup: macOS's refuses to run outside a console session in some setups. A small bash
# parent waits for it and writes its exit status to LOG.status, which the stop step reads: the server's own PID
# goes to LOG.pid and is the one exported (and signalled).
rm -f "$log.pid" "$log.status"
# shellcheck disable=SC2094 # the first "$log" is only the wrapper's $0, the prefix of its .pid and .status files
bash -c '"$@" & echo $! >"$0.pid"; wait $!; echo $? >"$0.status"' \
  "$log" "$binary" --stubs "$stubs" --port "$port" ${extra[@]+"${extra[@]}"} >"$log" 2>&1 </dev/null &
parent=$!
pid=
deadline=$((SECONDS + timeout))
while [ -z "$pid" ]; do
  if [ -s "$log.pid" ]; then pid=$(cat "$log.pid"); fi
  [ "$SECONDS" -lt "$deadline" ] || fail "the server's PID did not appear in $log.pid within ${timeout}s"
  [ -n "$pid" ] || sleep 0.05
done
echo "stubserver started: PID $pid, log $log"

# Ready = the first stdout line `Listening on http://HOST:PORT` has been written (it carries the port, for
# --port 0) and `stubserver health` gets a 200 from /__admin/health there.
url=
while :; do
  if ! kill -0 "$pid" 2>/dev/null; then
    wait "$parent" || true
    status=$(cat "$log.status" 2>/dev/null || echo unknown)
    show_log || true
    fail "stubserver exited with status $status before it was healthy (its log is above)"
  fi
  if [ -z "$url" ]; then
    url=$(sed -n 's|^Listening on \(http://[^ ]*\)$|\1|p' "$log" | head -n 1)
    # A server bound to every address is reached on the loopback one.
    url=${url/\/\/0.0.0.0:/\/\/127.0.0.1:}
    url=${url/\/\/\[::\]:/\/\/[::1]:}
  fi
  if [ -n "$url" ] && "$binary" health "$url" --timeout 2 >/dev/null 2>&1; then
    break
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    kill -KILL "$pid" 2>/dev/null || true
    wait "$parent" || true
    show_log || true
    fail "stubserver was not healthy within ${timeout}s (url: ${url:-no 'Listening on http://' line yet}); killed"
  fi
  sleep 0.2
done
echo "stubserver healthy at $url"

outputs=("url=$url" "pid=$pid" "log=$log" "binary=$binary")
environment=("STUBSERVER_PID=$pid" "STUBSERVER_LOG=$log")
if [ "$export_url" = true ]; then environment+=("STUBSERVER_URL=$url"); fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then printf '%s\n' "${outputs[@]}" >>"$GITHUB_OUTPUT"; else printf '%s\n' "${outputs[@]}"; fi
if [ -n "${GITHUB_ENV:-}" ]; then printf '%s\n' "${environment[@]}" >>"$GITHUB_ENV"; else printf '%s\n' "${environment[@]}"; fi
