#!/usr/bin/env python3
"""Hostile input against a TLS port, then proof that the server still serves on both ports.

    hostile-tls.py --https-port P --http-port Q --cafile CA.pem [--idle 200] [--host 127.0.0.1]
                   [--path /hello] [--expect "Hello, stubserver"] [--openssl openssl]

Run by Tests/stubserverEndToEndTests/TLSHostileInputEndToEndTests.swift against the `stubserver` binary; works
against any HTTPS server (nginx with TLS on one port and plain HTTP on another behaves the same). Python's
standard library only, plus the `openssl` CLI for the renegotiation attempt (Python cannot start one).

The cases, in order:
  stalled-hello     a ClientHello cut in half, then silence: held open while everything else runs, and must be
                    closed by the server (its header read timeout) before the end; waited for with a bound.
  stalled-finished  a whole ClientHello, the server's flight read, then silence (no Finished): the same.
  truncated-hello   half a ClientHello, then the write side shut: must be closed.
  garbage           1 KiB of random bytes: must be closed.
  plain-http        `GET PATH HTTP/1.1` in clear text on the TLS port: must be closed (an HTTP 400 first is fine).
  renegotiation     `openssl s_client -tls1_2`, handshake, then `R`: the renegotiation must not complete.
  idle              N TLS connections, handshake done, held open without a request; with all of them open, a new
                    HTTPS and a new HTTP request answer, and one of the held connections answers a request.
  after             a new HTTPS request and a new HTTP request answer PATH with the expected body.

The three quick cases (truncated-hello, garbage, plain-http) must be closed because of what they sent, not by a
timeout: each runs beside a control connection opened just before it that has sent half a ClientHello, and its
close must come while the control is still open (a timeout would close the older control first). No timing
threshold: only the order of two events.

Prints one JSON object: {"cases": {NAME: {"ok": bool, "detail": str}}, "ok": bool}; exits 0 when every case is ok,
1 otherwise, 2 on bad arguments.
"""

import argparse
import json
import os
import re
import select
import socket
import ssl
import subprocess
import sys
import time

BOUND = 60.0  # the most any single wait lasts, in seconds: a broken run ends, a slow machine still passes


def parse_arguments():
    parser = argparse.ArgumentParser(description="hostile input against a TLS port")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--https-port", type=int, required=True)
    parser.add_argument("--http-port", type=int, default=0, help="0: no plain-HTTP port to check")
    parser.add_argument("--cafile", required=True)
    parser.add_argument("--idle", type=int, default=200)
    parser.add_argument("--path", default="/hello")
    parser.add_argument("--expect", default="Hello, stubserver")
    parser.add_argument("--openssl", default="openssl")
    parser.add_argument("--server-name", default="localhost")
    return parser.parse_args()


ARGS = parse_arguments()
RESULTS = {}


def record(name, ok, detail):
    RESULTS[name] = {"ok": bool(ok), "detail": detail}


def connect():
    sock = socket.create_connection((ARGS.host, ARGS.https_port), timeout=BOUND)
    return sock


def context():
    ctx = ssl.create_default_context(cafile=ARGS.cafile)
    ctx.set_alpn_protocols(["http/1.1"])
    return ctx


def client_hello():
    """The bytes of a real ClientHello (TLS 1.2 and 1.3 offered), made by Python's ssl without a socket."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context().wrap_bio(incoming, outgoing, server_hostname=ARGS.server_name)
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    hello = outgoing.read()
    assert hello[:1] == b"\x16", "not a handshake record"
    return hello


def wait_closed(sock, bound=BOUND):
    """Reads until the peer closes; returns (how, bytes read): how is eof, reset or open (still open at the bound)."""
    received = b""
    sock.setblocking(False)
    deadline = time.monotonic() + bound
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return "open", received
        ready, _, _ = select.select([sock], [], [], min(left, 1.0))
        if not ready:
            continue
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            return "reset", received
        except BlockingIOError:
            continue
        if not chunk:
            return "eof", received
        received += chunk


def is_open(sock):
    """Whether the peer has neither closed nor reset `sock` (what it sent, if anything, is left unread)."""
    try:
        ready, _, _ = select.select([sock], [], [], 0)
        if not ready:
            return True
        # The plain socket's recv, also for a TLS socket (whose own recv takes no flags): data waiting (a TLS 1.3
        # session ticket, say) means open, an EOF closed.
        return len(socket.socket.recv(sock, 1, socket.MSG_PEEK)) > 0
    except OSError:
        return False


def describe(how, received):
    if not received:
        return how
    if received[:1] == b"\x15":
        kind = "a TLS alert"
    elif received[:5] == b"HTTP/":
        kind = "'" + received.split(b"\r\n", 1)[0].decode("latin-1") + "'"
    else:
        kind = "%d bytes" % len(received)
    return "%s after %s" % (how, kind)


def quick_case(name, payload, shut_write=False):
    """Sends `payload` beside a control connection; it must be closed while the control is still open."""
    control = connect()
    hello = client_hello()
    control.sendall(hello[: len(hello) // 2])
    sock = connect()
    try:
        sock.sendall(payload)
        if shut_write:
            sock.shutdown(socket.SHUT_WR)
    except (ConnectionResetError, BrokenPipeError):
        pass
    how, received = wait_closed(sock)
    control_open = is_open(control)
    sock.close()
    control.close()
    ok = how != "open" and control_open
    detail = describe(how, received)
    if how != "open" and not control_open:
        detail += ", but only once an older stalled handshake was closed too (a timeout, not a clear close)"
    record(name, ok, detail)


def https_get(path, sock=None):
    """GET path over a new TLS connection (or `sock`, already wrapped); returns (status, body)."""
    own = sock is None
    if own:
        sock = context().wrap_socket(connect(), server_hostname=ARGS.server_name)
    request = "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: %s\r\n\r\n" % (
        path, ARGS.server_name, "close" if own else "keep-alive")
    sock.sendall(request.encode())
    status, body = read_response(sock)
    if own:
        sock.close()
    return status, body


def http_get(path):
    sock = socket.create_connection((ARGS.host, ARGS.http_port), timeout=BOUND)
    sock.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % (path, ARGS.host)).encode())
    status, body = read_response(sock)
    sock.close()
    return status, body


def read_response(sock):
    """One response with a Content-Length body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before the response head: %r" % data[:200])
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return status, body[:length].decode("utf-8", "replace")


def answers(label, get):
    try:
        status, body = get(ARGS.path)
    except (OSError, ValueError, IndexError) as error:
        return False, "%s: %s" % (label, error)
    ok = status == 200 and body == ARGS.expect
    return ok, "%s %d %r" % (label, status, body[:60])


def both_ports_answer():
    results = [answers("https", https_get)]
    if ARGS.http_port:
        results.append(answers("http", http_get))
    return all(ok for ok, _ in results), "; ".join(detail for _, detail in results)


def renegotiation():
    """openssl s_client -tls1_2, then `R`: the server must refuse (an alert or a close), never renegotiate."""
    command = [ARGS.openssl, "s_client", "-connect", "%s:%d" % (ARGS.host, ARGS.https_port), "-tls1_2",
               "-CAfile", ARGS.cafile, "-servername", ARGS.server_name]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    process.stdin.write(b"R\n")
    process.stdin.flush()
    try:
        output, _ = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        # Still connected 15 s after `R` (no alert, no close): end it by closing stdin, then by PID if need be.
        try:
            process.stdin.close()
        except OSError:
            pass
        try:
            output, _ = process.communicate(timeout=BOUND)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
    text = output.decode("utf-8", "replace")
    if "RENEGOTIATING" not in text:
        record("renegotiation", False, "s_client never got to renegotiate (handshake failed?): " + text[-300:])
        return
    after = text.split("RENEGOTIATING", 1)[1]
    renegotiated = "verify return" in after or "depth=" in after
    # OpenSSL's error lines: "40374A0B547F0000:error:0A000153:SSL routines:ssl3_read_bytes:no renegotiation:…".
    errors = re.findall(r"error:[0-9A-Fa-f]+:[^:]*:[^:]*:([^:\n]*)", after)
    reason = errors[0] if errors else ("closed" if process.returncode != 0 else "no second handshake")
    record("renegotiation", not renegotiated,
           "renegotiated: a second handshake completed" if renegotiated else "refused (%s)" % reason)


def stalled_finished():
    """A whole ClientHello sent, the server's first flight read, then nothing more."""
    sock = connect()
    sock.sendall(client_hello())
    sock.settimeout(BOUND)
    first = sock.recv(65536)
    sock.settimeout(None)
    return sock, first[:1] == b"\x16"


def idle_connections():
    held = []
    try:
        for _ in range(ARGS.idle):
            held.append(context().wrap_socket(connect(), server_hostname=ARGS.server_name))
        ok_new, detail_new = both_ports_answer()
        ok_held, detail_held = answers("held", lambda path: https_get(path, held[len(held) // 2]))
        still_open = sum(1 for s in held if is_open(s))
        record("idle", ok_new and ok_held,
               "%d TLS connections held (%d still open); with them open: %s; one of them: %s"
               % (len(held), still_open, detail_new, detail_held))
    except (OSError, ValueError) as error:
        record("idle", False, "after %d connections: %s" % (len(held), error))
    finally:
        for sock in held:
            sock.close()


def main():
    if ARGS.idle + 32 > 4096:
        print("hostile-tls.py: --idle too large", file=sys.stderr)
        sys.exit(2)
    started = time.monotonic()
    stalled_hello = connect()
    hello = client_hello()
    stalled_hello.sendall(hello[: len(hello) // 2])
    stalled_after_hello, got_flight = stalled_finished()

    quick_case("truncated-hello", hello[: len(hello) // 2], shut_write=True)
    quick_case("garbage", os.urandom(1024))
    plain = "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (ARGS.path, ARGS.host)
    quick_case("plain-http", plain.encode())
    renegotiation()
    idle_connections()

    for name, sock, note in (("stalled-hello", stalled_hello, "half a ClientHello"),
                             ("stalled-finished", stalled_after_hello,
                              "a ClientHello, the server's flight %s" % ("read" if got_flight else "NOT read"))):
        how, received = wait_closed(sock, max(1.0, BOUND - (time.monotonic() - started)))
        sock.close()
        record(name, how != "open" and (got_flight or name == "stalled-hello"),
               "%s then silence: %s" % (note, describe(how, received) if how != "open" else "still open"))

    ok, detail = both_ports_answer()
    record("after", ok, detail)
    everything = all(case["ok"] for case in RESULTS.values())
    print(json.dumps({"cases": RESULTS, "ok": everything}, indent=1))
    sys.exit(0 if everything else 1)


main()
