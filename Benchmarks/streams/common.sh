# Shell functions shared by Benchmarks/bench-streams.sh and bench-websockets.sh (after Benchmarks/lib.sh, with
# BENCH_NAME, TMP and PIDS set). Each server is measured alone, one after the other.
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
