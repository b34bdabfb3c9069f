#!/usr/bin/env python3
"""Cold start of a server: spawn until the first correct 200, in milliseconds, best of N.

Usage: coldstart.py RUNS PATH BODY [--port PORT] -- COMMAND...
  Without --port, the command must print `Listening on http://HOST:PORT` on stdout (stubserver, engine-bench).
  With --port, the server listens there (nginx). Each run polls GET PATH over one fresh connection per try,
  without sleeping, until the answer is 200 with BODY (empty BODY: any 200), then stops the server (SIGTERM, then
  SIGKILL after 5 s) and waits for it. Prints the best run's milliseconds. Every run is bounded to 10 s.
"""
import http.client, os, re, select, signal, subprocess, sys, time

def one_run(command, port, path, body):
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        host = "127.0.0.1"
        if port is None:
            buffered = b""
            while time.monotonic() - start < 10:
                ready, _, _ = select.select([process.stdout], [], [], 0.1)
                if ready:
                    chunk = os.read(process.stdout.fileno(), 4096)
                    if not chunk:
                        raise SystemExit("coldstart: the server closed stdout before listening")
                    buffered += chunk
                    found = re.search(rb"Listening on http://([^:/\s]+):(\d+)", buffered)
                    if found:
                        host, port = found.group(1).decode(), int(found.group(2))
                        break
            else:
                raise SystemExit("coldstart: no `Listening on` line within 10 s")
        while time.monotonic() - start < 10:
            try:
                connection = http.client.HTTPConnection(host, port, timeout=1)
                connection.request("GET", path)
                answer = connection.getresponse()
                data = answer.read()
                connection.close()
                if answer.status == 200 and (not body or data.decode(errors="replace").strip() == body):
                    return (time.monotonic() - start) * 1000
            except OSError:
                pass
        raise SystemExit("coldstart: no correct answer within 10 s")
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

def main(argv):
    runs, path, body = int(argv[1]), argv[2], argv[3]
    rest = argv[4:]
    port = None
    if rest[:1] == ["--port"]:
        port, rest = int(rest[1]), rest[2:]
    if rest[:1] != ["--"]:
        raise SystemExit(__doc__)
    command = rest[1:]
    print("%.1f" % min(one_run(command, port, path, body) for _ in range(runs)))

if __name__ == "__main__":
    main(sys.argv)
