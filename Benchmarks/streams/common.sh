# Shell functions shared by Benchmarks/bench-streams.sh and bench-websockets.sh (sourced after Benchmarks/lib.sh,
# with BENCH_NAME set; streams_setup makes TMP and PIDS). Each server is measured alone, one after the other.
# shellcheck shell=bash

# streams_open_files CONNECTIONS: raises the open-files limit for the servers and the client, or exits 2.
streams_open_files() {
  ulimit -n $(($1 * 2 + 256)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"
  [ "$(ulimit -n)" -gt $(($1 + 64)) ] || { echo "$BENCH_NAME: the open-files limit ($(ulimit -n)) is too low for $1 connections" >&2; exit 2; }
}

# streams_start NAME COMMAND...: starts COMMAND (which prints `Listening on URL`), sets SERVER_PID and SERVER_URL.
streams_start() {
  local name=$1
  shift
  "$@" > "$TMP/$name.out" 2> "$TMP/$name.err" &
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  SERVER_URL=$(listening_url "$TMP/$name.out")
  [ -n "$SERVER_URL" ] || { echo "$BENCH_NAME: $name did not start:" >&2; cat "$TMP/$name.err" >&2; exit 1; }
}

# streams_measure NAME TIMEOUT CLIENT-COMMAND...: runs the client (its last arguments: the server's port, then
# what it takes) against SERVER_PID, appends `NAME JSON` to $TMP/results, then stops the server.
streams_measure() {
  local name=$1 limit=$2 port=${SERVER_URL##*:}
  shift 2
  port=${port%%/*}
  echo "Measuring $name (pid $SERVER_PID, $SERVER_URL)..."
  printf '%s ' "$name" >> "$TMP/results"
  timeout "$limit" "$@" "$port" "$SERVER_PID" >> "$TMP/results"
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
}

# streams_setup ARG...: reads the options (--check, --connections N, and bench_option's), checks them, raises the
# open-files limit, builds (or finds) the release stubserver in STUBSERVER, and makes TMP, PIDS and the cleanup
# that stops the servers started, by PID.
streams_setup() {
  STRICT=0 BUILD=1 ROUNDS=1 DURATION=20 PIN=0 SCRATCH="" CONNECTIONS=1000
  while [ $# -gt 0 ]; do
    case "$1" in
      --check) STRICT=1; shift ;;
      --connections) CONNECTIONS=$2; shift 2 ;;
      *) bench_option "$@"; shift "$BENCH_SHIFT" ;;
    esac
  done
  [ "$CONNECTIONS" -ge 1 ] && [ "$CONNECTIONS" -le 4000 ] || { echo "$BENCH_NAME: --connections takes 1 to 4000" >&2; exit 2; }
  [ "$DURATION" -ge 2 ] && [ "$DURATION" -le 600 ] || { echo "$BENCH_NAME: --duration takes 2 to 600" >&2; exit 2; }
  bench_require python3 curl
  streams_open_files "$CONNECTIONS"
  if [ -n "${STUBSERVER_BIN:-}" ]; then
    STUBSERVER=$STUBSERVER_BIN
  else
    bench_build stubserver
    STUBSERVER="$(bench_bin_path)/stubserver"
  fi
  [ -x "$STUBSERVER" ] || { echo "$BENCH_NAME: $STUBSERVER not built (run without --no-build)" >&2; exit 2; }
  TMP=$(mktemp -d "/tmp/$BENCH_NAME.XXXXXX")
  PIDS=()
  trap streams_cleanup EXIT
  trap 'exit 130' INT TERM
}

streams_cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
  rm -rf "$TMP"
}
