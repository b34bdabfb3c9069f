#!/usr/bin/env bash
# Stops the stubserver that ../stubserver/start.sh started: SIGTERM to its PID (the server drains and exits),
# a bounded wait for its exit status, SIGKILL if it does not exit in time, then the log's tail.
# The shell half of the composite action beside it (action.yml), meant for a step with `if: always()`.
#
# Inputs (environment; action.yml maps its inputs onto them):
#   STUBSERVER_ACTION_PID    the server's PID (default: $STUBSERVER_PID, exported by the start action)
#   STUBSERVER_ACTION_LOG    its log file (default: $STUBSERVER_LOG); LOG.status holds its exit status once it exits
#   STUBSERVER_ACTION_GRACE  seconds to wait after SIGTERM (default: 15)
#   STUBSERVER_ACTION_TAIL   how many of the log's last lines to print (default: 50; 0 prints none)
# Exit: 0 when the server exited with status 0 on SIGTERM (or had exited with 0 before), or when there was nothing
# to stop because the start step failed first; 1 when it exited with another status, crashed before the stop, or
# needed SIGKILL.
set -euo pipefail

pid=${STUBSERVER_ACTION_PID:-${STUBSERVER_PID:-}}
log=${STUBSERVER_ACTION_LOG:-${STUBSERVER_LOG:-}}
grace=${STUBSERVER_ACTION_GRACE:-15}
lines=${STUBSERVER_ACTION_TAIL:-50}

case $grace in
  '' | *[!0-9]*) echo "::error title=stubserver-stop::grace must be a whole number of seconds, got '$grace'"; exit 1 ;;
esac
case $lines in
  '' | *[!0-9]*) echo "::error title=stubserver-stop::tail must be a number of lines, got '$lines'"; exit 1 ;;
esac

print_log() {
  if [ -n "$log" ] && [ -f "$log" ] && [ "$lines" -gt 0 ]; then
    echo "---- the last $lines lines of $log ----"
    tail -n "$lines" "$log"
  fi
}

if [ -z "$pid" ]; then
  echo "stubserver-stop: no PID (the start step did not get as far as starting it): nothing to stop"
  print_log
  exit 0
fi
case $pid in
  *[!0-9]* | 0) echo "::error title=stubserver-stop::not a PID: '$pid'"; exit 1 ;;
esac

status_file=${log:+$log.status}
# The exit status the start step's parent shell wrote, waited for up to `grace` seconds.
await_status() {
  local deadline=$((SECONDS + grace))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if [ -n "$status_file" ] && [ -s "$status_file" ]; then
      cat "$status_file"
      return 0
    fi
    if [ -z "$status_file" ] && ! kill -0 "$pid" 2>/dev/null; then
      echo unknown
      return 0
    fi
    sleep 0.1
  done
  # Gone, but no status was written (its parent shell was killed too): stopped, status unknown.
  if ! kill -0 "$pid" 2>/dev/null; then
    echo unknown
    return 0
  fi
  return 1
}

# 0: pass; unknown: a warning; anything else: an error.
judge() {
  case $1 in
    0) echo "stubserver (PID $pid) $2: exit status 0" ;;
    unknown) echo "::warning title=stubserver-stop::stubserver (PID $pid) $2; its exit status is unknown (no $status_file)" ;;
    *)
      echo "::error title=stubserver-stop::stubserver (PID $pid) $2: exit status $1"
      result=1
      ;;
  esac
}

result=0
if ! kill -0 "$pid" 2>/dev/null; then
  status=$(await_status || echo unknown)
  judge "$status" "had exited before the stop step"
else
  kill -TERM "$pid" 2>/dev/null || true
  if status=$(await_status); then
    judge "$status" "stopped on SIGTERM"
  else
    kill -KILL "$pid" 2>/dev/null || true
    echo "::error title=stubserver-stop::stubserver (PID $pid) did not exit within ${grace}s of SIGTERM: killed"
    result=1
  fi
fi
print_log
exit "$result"
