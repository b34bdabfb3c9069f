#!/usr/bin/env python3
"""COUNT connections each send GET PATH at once; prints the seconds until every answer has arrived, how many
were 200 with the expected body, the earliest first byte, and the server's most threads meanwhile.

Usage: concurrent.py PORT COUNT PATH BODY SERVER_PID. Loopback only; every socket times out after 60 s."""
import selectors
import socket
import sys
import time


def threads(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    port, count, path, body, pid = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4].encode(), sys.argv[5]
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
    selector = selectors.DefaultSelector()
    received = {}
    start = time.monotonic()
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=60)
        s.sendall(request)
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
        received[s] = b""
    first = None
    most_threads = threads(pid)
    open_sockets = count
    deadline = start + 60
    while open_sockets and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.05):
            s = key.fileobj
            data = s.recv(65536)
            if first is None and data:
                first = time.monotonic() - start
            if data:
                received[s] += data
            else:
                selector.unregister(s)
                s.close()
                open_sockets -= 1
        most_threads = max(most_threads, threads(pid))
    elapsed = time.monotonic() - start
    ok = sum(1 for data in received.values() if data.startswith(b"HTTP/1.1 200") and data.endswith(b"\r\n\r\n" + body))
    print(f"{elapsed:.2f} {ok} {first if first is not None else float('nan'):.3f} {most_threads}")


main()
