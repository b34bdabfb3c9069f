#!/usr/bin/env bash
# The files one GET for a prepared stub passes: the stubserver binary (debug, DWARF 4 for valgrind) under
# valgrind's callgrind serves `GET /hello` four times on one kept-alive connection; each readable event of the
# event loop (Connection.handle) is dumped apart, and the 4th request's dump gives the files of Sources/ whose
# code ran, from the bytes arriving to the response written (the selector's own file, which calls in, is added).
# ARCHITECTURE.md ("The files one GET passes") states the result.
#
# Usage: Benchmarks/hot-path-files.sh [--scratch-path DIR]   (default: /tmp/stubserver-hot-path)
# Needs: swift, valgrind, curl, python3. Takes about 2 minutes for the build, then half a minute.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=/tmp/stubserver-hot-path
[ "${1:-}" = "--scratch-path" ] && SCRATCH=$2
for tool in swift valgrind curl python3; do
  command -v "$tool" > /dev/null || { echo "hot-path-files: $tool is needed" >&2; exit 2; }
done
(cd "$ROOT" && swift build --product stubserver --scratch-path "$SCRATCH" \
  -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4 2>&1 | tail -1)
BIN="$SCRATCH/debug/stubserver"
TMP=$(mktemp -d /tmp/hot-path.XXXXXX)
VPID=""
cleanup() {
  [ -n "$VPID" ] && kill "$VPID" 2>/dev/null && wait "$VPID" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p "$TMP/stubs/mappings"
echo '{"request":{"method":"GET","url":"/hello"},"response":{"status":200,"body":"hello"}}' \
  > "$TMP/stubs/mappings/hello.json"
nm "$BIN" > "$TMP/symbols"
HANDLE=$(awk '/ T .*StubHTTP10ConnectionC6handleyyAA13SelectorEventVF$/ { print $3 }' "$TMP/symbols")
[ -n "$HANDLE" ] || { echo "hot-path-files: Connection.handle(_:) not found in $BIN" >&2; exit 1; }
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
valgrind --tool=callgrind --separate-threads=yes --dump-instr=no \
  --zero-before="$HANDLE" --dump-after="$HANDLE" --callgrind-out-file="$TMP/cg.out" \
  "$BIN" --port "$PORT" --stubs "$TMP/stubs" > "$TMP/server.log" 2>&1 &
VPID=$!
for _ in $(seq 1 240); do
  curl -s -o /dev/null "http://127.0.0.1:$PORT/__admin/health" && break
  sleep 0.5
done
# Four requests on one connection: the 4th is the one measured (the first ones warm the caches up).
python3 - "$PORT" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
for _ in range(4):
    s.sendall(b"GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    data = b""
    while not data.endswith(b"hello"):
        chunk = s.recv(65536)
        if not chunk: sys.exit("hot-path-files: the connection closed")
        data += chunk
    time.sleep(0.3)
s.close()
PY
sleep 1
kill -INT "$VPID"; wait "$VPID" || true; VPID=""
# The dumps of the event-loop thread, in order: the health check's request and EOF, then the four requests.
mapfile -t DUMPS < <(ls "$TMP"/cg.out.*-* | sort -t. -k3 -n)
[ "${#DUMPS[@]}" -ge 6 ] || { echo "hot-path-files: too few dumps (${#DUMPS[@]})" >&2; cat "$TMP/server.log" >&2; exit 1; }
python3 - "${DUMPS[5]}" "$ROOT/Sources/" <<'PY'
import re, sys
names, hit = {}, {}
def resolve(spec):
    m = re.match(r"\((\d+)\)(?: (.*))?", spec)
    if not m: return spec
    if m.group(2): names[m.group(1)] = m.group(2)
    return names.get(m.group(1), "?")
current = base = None
after_call = False
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("fl="): base = current = resolve(line[3:])
    elif line.startswith(("fi=", "fe=")): current = resolve(line[3:])
    elif line.startswith("fn="): current = base
    elif line.startswith(("cfi=", "cfl=")): resolve(line[4:])
    elif line.startswith("calls="): after_call = True
    elif line and (line[0].isdigit() or line[0] in "+-*"):
        if after_call: after_call = False; continue  # a call's inclusive cost: not this file's own
        parts = line.split()
        if len(parts) > 1 and int(parts[1]) > 0 and current: hit[current] = hit.get(current, 0) + int(parts[1])
root = sys.argv[2]
files = sorted({f.split(root, 1)[1] for f in hit if root in f} | {"StubHTTP/IO/Selector+Epoll.swift"})
for target in sorted({f.split("/")[0] for f in files}):
    mine = [f for f in files if f.startswith(target + "/")]
    print(f"{target}: {len(mine)} files")
    for f in mine: print(f"  {f}")
print(f"total: {len(files)} files")
PY
