#!/usr/bin/env bash
# Checks the GitHub Actions files offline: every workflow (.github/workflows) and action (.github/actions/*/action.yml)
# against the JSON schemas check-jsonschema vendors (vendor.github-workflows, vendor.github-actions), bash -n on
# the actions' run blocks and scripts, and the stubserver actions' scripts at work on Linux against BINARY with the
# demo Stubs: start.sh (port 0, health, exported URL and PID), the demo over curl, stop.sh (exit status 0, PID
# gone), and their failures (a missing stubs folder, a server that cannot start, a server killed before the stop).
#
#   bash .ci/github-actions-check.sh "$(swift build -c release --show-bin-path)/stubserver"
#
# check-jsonschema comes from PATH, else from PyPI into a throwaway venv; without either the schema check says
# SKIPPED and the rest still runs. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=${1:?usage: $0 STUBSERVER_BINARY}
[ -x "$binary" ] || { echo "FAIL: no executable at $binary" >&2; exit 1; }
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
work=$(mktemp -d)
started_pids=()
cleanup() {
  local pid
  for pid in ${started_pids[@]+"${started_pids[@]}"}; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
actions=(.github/actions/*/action.yml .github/actions/*/action.yaml)
[ ${#actions[@]} -gt 0 ] || fail "no action files under .github/actions"

# ---- schemas -------------------------------------------------------------------------------------------------
schema_tool=$(command -v check-jsonschema || true)
if [ -z "$schema_tool" ]; then
  if timeout 300 python3 -m venv "$work/venv" >/dev/null 2>&1 \
    && timeout 300 "$work/venv/bin/pip" install --quiet --disable-pip-version-check check-jsonschema >/dev/null 2>&1; then
    schema_tool="$work/venv/bin/check-jsonschema"
  fi
fi
if [ -n "$schema_tool" ]; then
  "$schema_tool" --builtin-schema vendor.github-workflows "${workflows[@]}" || fail "a workflow does not follow GitHub's schema"
  "$schema_tool" --builtin-schema vendor.github-actions "${actions[@]}" || fail "an action does not follow GitHub's schema"
  echo "schemas: ${#workflows[@]} workflow(s) and ${#actions[@]} action(s) valid"
else
  echo "SKIPPED: the schema check (check-jsonschema is not on PATH and PyPI is unreachable); bash and behaviour checks only."
fi

# ---- bash syntax: the scripts and every run: block of the actions (with ${{ }} replaced by a word) -------------
for script in .github/actions/*/*.sh; do bash -n "$script" || fail "$script: bash syntax error"; done
python3 - "${actions[@]}" <<'PY' || fail "an action's run block does not parse as bash"
import re, subprocess, sys
from ruamel.yaml import YAML
failed = False
for path in sys.argv[1:]:
    with open(path) as f:
        action = YAML(typ="safe").load(f)
    for index, step in enumerate((action.get("runs") or {}).get("steps") or []):
        script = step.get("run")
        if not isinstance(script, str):
            continue
        if step.get("shell") != "bash":
            failed = True
            print(f"{path}: step {index + 1}: shell is {step.get('shell')!r}, expected bash", file=sys.stderr)
            continue
        check = subprocess.run(["bash", "-n"], input=re.sub(r"\$\{\{.*?\}\}", "EXPR", script),
                               capture_output=True, text=True)
        if check.returncode != 0:
            failed = True
            print(f"{path}: step {index + 1}: bash syntax error:\n{check.stderr}", file=sys.stderr)
sys.exit(1 if failed else 0)
PY
if command -v shellcheck >/dev/null; then
  shellcheck .github/actions/*/*.sh || fail "shellcheck"
else
  echo "SKIPPED: shellcheck (not installed); bash -n only."
fi
echo "bash: the action scripts and run blocks parse"

# ---- start.sh / stop.sh at work --------------------------------------------------------------------------------
start=.github/actions/stubserver/start.sh
stop=.github/actions/stubserver-stop/stop.sh

# Runs start.sh as the runner would: a fresh $GITHUB_ENV, $GITHUB_OUTPUT and $RUNNER_TEMP under $work/NAME.
run_start() {
  local name=$1
  shift
  mkdir -p "$work/$name/tmp"
  : >"$work/$name/env"
  : >"$work/$name/output"
  env GITHUB_ENV="$work/$name/env" GITHUB_OUTPUT="$work/$name/output" RUNNER_TEMP="$work/$name/tmp" \
    STUBSERVER_ACTION_BINARY="$binary" "$@" bash "$start" >"$work/$name/start.log" 2>&1
}
# A value from a KEY=VALUE file.
value() { sed -n "s/^$2=//p" "$1" | tail -n 1; }
# Runs stop.sh with the variables start.sh exported.
run_stop() {
  local name=$1
  shift
  env STUBSERVER_PID="$(value "$work/$name/env" STUBSERVER_PID)" STUBSERVER_LOG="$(value "$work/$name/env" STUBSERVER_LOG)" \
    "$@" bash "$stop" >"$work/$name/stop.log" 2>&1
}
show() {
  echo "---- $1 ----"
  cat "$1"
}

# 1. The demo: start on a free port, the URL and PID exported, GET /users/octocat, stop with status 0, PID gone.
run_start demo STUBSERVER_ACTION_STUBS=Stubs STUBSERVER_ACTION_PORT=0 STUBSERVER_ACTION_ARGS="--verbose" \
  || { show "$work/demo/start.log"; fail "start.sh did not start the demo"; }
url=$(value "$work/demo/output" url)
pid=$(value "$work/demo/output" pid)
started_pids+=("$pid")
[ "$(value "$work/demo/env" STUBSERVER_URL)" = "$url" ] || fail "STUBSERVER_URL in \$GITHUB_ENV is not the url output ($url)"
[ "$(value "$work/demo/env" STUBSERVER_PID)" = "$pid" ] || fail "STUBSERVER_PID in \$GITHUB_ENV is not the pid output ($pid)"
[ "$(value "$work/demo/output" log)" = "$work/demo/tmp/stubserver.log" ] || fail "the log is not \$RUNNER_TEMP/stubserver.log"
case $url in http://127.0.0.1:[1-9]*) ;; *) fail "the url output is not http://127.0.0.1:PORT: '$url'" ;; esac
kill -0 "$pid" || fail "PID $pid is not running after start.sh"
login=$(curl -fsS --max-time 10 "$url/users/octocat" | python3 -c 'import json, sys; print(json.load(sys.stdin)["login"])')
[ "$login" = octocat ] || fail "GET /users/octocat answered login '$login'"
grep -q 'GET /users/octocat' "$work/demo/tmp/stubserver.log" || fail "the log has no --verbose line for the request"
run_stop demo || { show "$work/demo/stop.log"; fail "stop.sh failed on a healthy server"; }
grep -q "stopped on SIGTERM: exit status 0" "$work/demo/stop.log" || { show "$work/demo/stop.log"; fail "stop.sh did not report exit status 0"; }
grep -q "the last 50 lines of" "$work/demo/stop.log" || fail "stop.sh did not print the log's tail"
! kill -0 "$pid" 2>/dev/null || fail "PID $pid still runs after stop.sh"
echo "start/stop: demo served at $url (PID $pid), GET /users/octocat -> $login, stopped with status 0, PID gone"

# 2. The default-looking call: no URL export when asked not to.
run_start noexport STUBSERVER_ACTION_STUBS=Stubs STUBSERVER_ACTION_PORT=0 STUBSERVER_ACTION_EXPORT=false \
  || { show "$work/noexport/start.log"; fail "start.sh with export-url false"; }
started_pids+=("$(value "$work/noexport/output" pid)")
! grep -q '^STUBSERVER_URL=' "$work/noexport/env" || fail "STUBSERVER_URL exported although export-url is false"
run_stop noexport || { show "$work/noexport/stop.log"; fail "stop.sh (export-url false)"; }
echo "start/stop: export-url false exports STUBSERVER_PID and STUBSERVER_LOG only"

# 3. Failures, each bounded: a missing stubs folder; a server that exits at start (an unknown option); one never
#    healthy (--no-admin: no /__admin/health) within a 2 s timeout, killed; a server that died before the stop step
#    (SIGKILL: status 137); a stop step without a PID (the start step failed).
if run_start missing STUBSERVER_ACTION_STUBS="$work/no-such-folder" STUBSERVER_ACTION_PORT=0; then
  fail "start.sh succeeded without a stubs folder"
fi
grep -q "does not exist" "$work/missing/start.log" || { show "$work/missing/start.log"; fail "no message for the missing stubs folder"; }
if run_start badoption STUBSERVER_ACTION_STUBS=Stubs STUBSERVER_ACTION_PORT=0 STUBSERVER_ACTION_ARGS="--no-such-option" \
  STUBSERVER_ACTION_TIMEOUT=30; then
  fail "start.sh succeeded with a server that cannot start"
fi
if ! grep -q "exited with status [1-9]" "$work/badoption/start.log" || ! grep -q "no-such-option" "$work/badoption/start.log"; then
  show "$work/badoption/start.log"
  fail "no exit status or server message for a server that cannot start"
fi
if run_start noadmin STUBSERVER_ACTION_STUBS=Stubs STUBSERVER_ACTION_PORT=0 STUBSERVER_ACTION_ARGS="--no-admin" \
  STUBSERVER_ACTION_TIMEOUT=2; then
  fail "start.sh succeeded with a server whose /__admin/health is off (--no-admin)"
fi
grep -q "not healthy within 2s" "$work/noadmin/start.log" || { show "$work/noadmin/start.log"; fail "no timeout message"; }
pid=$(sed -n 's/^stubserver started: PID \([0-9]*\),.*/\1/p' "$work/noadmin/start.log")
[ -n "$pid" ] || fail "start.sh did not say the PID of the server it gave up on"
! kill -0 "$pid" 2>/dev/null || fail "start.sh left the unhealthy server (PID $pid) running"
run_start killed STUBSERVER_ACTION_STUBS=Stubs STUBSERVER_ACTION_PORT=0 || { show "$work/killed/start.log"; fail "start.sh (killed)"; }
pid=$(value "$work/killed/output" pid)
started_pids+=("$pid")
kill -KILL "$pid"
if run_stop killed STUBSERVER_ACTION_GRACE=10; then
  show "$work/killed/stop.log"
  fail "stop.sh passed although the server had been killed"
fi
grep -q "had exited before the stop step: exit status 137" "$work/killed/stop.log" \
  || { show "$work/killed/stop.log"; fail "stop.sh did not report the earlier exit (137)"; }
env -u STUBSERVER_PID -u STUBSERVER_LOG bash "$stop" >"$work/nopid.log" 2>&1 || { show "$work/nopid.log"; fail "stop.sh without a PID"; }
grep -q "nothing to stop" "$work/nopid.log" || fail "stop.sh without a PID says nothing"
echo "start/stop failures: missing stubs folder, server exiting at start, never healthy (killed after the timeout),"
echo "  server killed before the stop, no PID: as expected"
echo "github-actions-check: passed"
