"""Attack and probe clients for Benchmarks/bench-hostile.sh. Loopback only; every loop bounded in count and time.

  probe PORT COUNT SECONDS      GET /hello on a new connection each time (5 s timeout); prints
                                "p50_ms p99_ms answered errors"
  idle PORT COUNT SECONDS       opens COUNT connections that never send a byte, holds them SECONDS
  slowloris PORT COUNT SECONDS  COUNT connections sending a request head one byte per second
  halfsent PORT COUNT SECONDS   COUNT connections that each send half a request head at once, then nothing, held SECONDS
  regex PORT CLIENTS SECONDS    CLIENTS loops of GET /aaaa...a! (the pathological urlPattern)
  fill PORT COUNT SIZE          COUNT keep-alive POST /fill with SIZE-byte bodies (fills the journal)
  admin PORT SECONDS            loops GET /__admin/requests (the whole journal)
  bigbody PORT COUNT MIB        COUNT POST /upload of MIB MiB each
  unmatched PORT COUNT SECONDS  keep-alive GET /nope/N (each a near-miss report on stderr)
  segbomb PORT CLIENTS SECONDS  CLIENTS loops of GET /bomb/s/s/... (1,000 path segments, about 2 KB) against three
                                nested {{#each request.pathSegments}} (10^9 iterations without a limit)
  bigtemplate PORT READERS MIB SECONDS
                                READERS connections asking GET /big/s/.../s (a 10 MiB templated response) that never
                                read, held SECONDS, while one client loops POST /each with a MIB MiB JSON array
                                rendered by {{#each}} (its output over the 16 MiB limit)
  proxyloop PORT CLIENTS SECONDS  adds a stub proxying /loop/.* to the server itself, then CLIENTS loops of GET /loop/N
  silent PORT COUNT SECONDS     adds a stub proxying /silent/.* to a listener that never answers, then keeps COUNT
                                requests waiting on it (each re-sent when the proxy timeout answers it)
  silenttls PORT COUNT SECONDS  the same with an https:// upstream: each TLS hello is sent and never answered
  jsonbody PORT COUNT MIB       COUNT POST /json of a MIB MiB JSON array [0,0,...] (a matchesJsonPath stub)
  nearmiss PORT CLIENTS SECONDS CLIENTS loops of GET on an unmatched 500-character URL near the long stub URLs
  bodyfile PORT READERS SECONDS READERS connections asking GET /huge (a 1 GiB body file) and reading 64 KiB every
                                100 ms, while one client downloads it whole in a loop, for SECONDS
  adminwrites PORT COUNT        POST /__admin/mappings COUNT times one by one, then the same COUNT as one import;
                                prints "first20_ms last20_ms import_s" (mean ms per POST at the start and the end)
"""
import http.client, socket, sys, threading, time

HOST = "127.0.0.1"


def probe(port, count, seconds):
    latencies, errors = [], 0
    deadline = time.time() + seconds
    for _ in range(count):
        if time.time() > deadline:
            break
        start = time.perf_counter()
        try:
            c = http.client.HTTPConnection(HOST, port, timeout=5)
            c.request("GET", "/hello", headers={"Connection": "close"})
            r = c.getresponse()
            r.read()
            c.close()
            if r.status != 200:
                errors += 1
                continue
            latencies.append((time.perf_counter() - start) * 1000)
        except Exception:
            errors += 1
        time.sleep(0.01)
    latencies.sort()
    def pct(p):
        return latencies[min(len(latencies) - 1, int(len(latencies) * p))] if latencies else float("nan")
    print("%.2f %.2f %d %d" % (pct(0.50), pct(0.99), len(latencies), errors))


def hold(sockets, seconds):
    time.sleep(seconds)
    for s in sockets:
        s.close()


def idle(port, count, seconds):
    sockets = []
    deadline = time.time() + seconds
    for _ in range(count):
        if time.time() > deadline:
            break
        try:
            sockets.append(socket.create_connection((HOST, port), timeout=2))
        except OSError:
            time.sleep(0.01)
    hold(sockets, max(0, deadline - time.time()))


def slowloris(port, count, seconds):
    head = b"GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 400
    sockets = []
    for _ in range(count):
        try:
            sockets.append(socket.create_connection((HOST, port), timeout=2))
        except OSError:
            pass
    deadline = time.time() + seconds
    i = 0
    while time.time() < deadline and i < len(head):
        for s in list(sockets):
            try:
                s.send(head[i:i + 1])
            except OSError:
                sockets.remove(s)
        i += 1
        time.sleep(1)
    for s in sockets:
        s.close()


def halfsent(port, count, seconds):
    head = b"GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: "
    sockets = []
    deadline = time.time() + seconds
    for _ in range(count):
        if time.time() > deadline:
            break
        try:
            s = socket.create_connection((HOST, port), timeout=2)
            s.sendall(head)
            sockets.append(s)
        except OSError:
            time.sleep(0.01)
    hold(sockets, max(0, deadline - time.time()))


def loop(port, seconds, method, path, body=None, timeout=30):
    deadline = time.time() + seconds
    c = http.client.HTTPConnection(HOST, port, timeout=timeout)
    n = 0
    while time.time() < deadline and n < 100000:
        try:
            c.request(method, path, body=body)
            c.getresponse().read()
        except Exception:
            c.close()
            c = http.client.HTTPConnection(HOST, port, timeout=timeout)
        n += 1


def regex(port, clients, seconds):
    path = "/" + "a" * 30 + "!"
    threads = [threading.Thread(target=loop, args=(port, seconds, "GET", path)) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def fill(port, count, size):
    c = http.client.HTTPConnection(HOST, port, timeout=30)
    body = b"x" * size
    for _ in range(count):
        c.request("POST", "/fill", body=body)
        c.getresponse().read()


def admin(port, seconds):
    loop(port, seconds, "GET", "/__admin/requests", timeout=120)


def bigbody(port, count, mib):
    body = b"a" * (mib * 1024 * 1024)
    for _ in range(count):
        try:
            c = http.client.HTTPConnection(HOST, port, timeout=60)
            c.request("POST", "/upload", body=body)
            c.getresponse().read()
            c.close()
        except Exception:
            pass


def unmatched(port, count, seconds):
    deadline = time.time() + seconds
    c = http.client.HTTPConnection(HOST, port, timeout=5)
    for n in range(count):
        if time.time() > deadline:
            break
        try:
            c.request("GET", "/nope/%d" % n)
            c.getresponse().read()
        except Exception:
            c.close()
            c = http.client.HTTPConnection(HOST, port, timeout=5)


def segbomb(port, clients, seconds):
    path = "/bomb" + "/s" * 999
    threads = [threading.Thread(target=loop, args=(port, seconds, "GET", path)) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def bigtemplate(port, readers, mib, seconds):
    request = ("GET /big" + "/s" * 159 + " HTTP/1.1\r\nHost: x\r\n\r\n").encode()
    sockets = []
    for _ in range(readers):
        try:
            s = socket.create_connection((HOST, port), timeout=5)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(request)
            sockets.append(s)
        except OSError:
            pass
    item = b'"0123456789abcdef",'
    count = mib * 1024 * 1024 // len(item)
    body = b"[" + item * (count - 1) + b'"end"]'
    loop(port, seconds, "POST", "/each", body=body, timeout=120)
    for s in sockets:
        s.close()


def add_proxy_stub(port, pattern, base):
    mapping = '{"request": {"urlPathPattern": "%s"}, "response": {"proxyBaseUrl": "%s"}}' % (pattern, base)
    c = http.client.HTTPConnection(HOST, port, timeout=10)
    c.request("POST", "/__admin/mappings", body=mapping)
    c.getresponse().read()
    c.close()


def proxyloop(port, clients, seconds):
    add_proxy_stub(port, "/loop/.*", "http://%s:%d" % (HOST, port))
    threads = [threading.Thread(target=loop, args=(port, seconds, "GET", "/loop/%d" % n, None, 10))
               for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def silent(port, count, seconds, scheme="http"):
    listener = socket.socket()
    listener.bind((HOST, 0))
    listener.listen(count + 16)   # connections queue in the backlog; nothing accepts or answers them
    add_proxy_stub(port, "/silent/.*", "%s://%s:%d" % (scheme, HOST, listener.getsockname()[1]))
    threads = [threading.Thread(target=loop, args=(port, seconds, "GET", "/silent/%d" % n, None, 60))
               for n in range(min(count, 200))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    listener.close()


def silenttls(port, count, seconds):
    silent(port, count, seconds, "https")   # the TLS hello is sent and never answered


def jsonbody(port, count, mib):
    body = b"[" + b"0," * (mib * 1024 * 1024 // 2) + b"0]"
    for _ in range(count):
        try:
            c = http.client.HTTPConnection(HOST, port, timeout=60)
            c.request("POST", "/json", body=body, headers={"Content-Type": "application/json"})
            c.getresponse().read()
            c.close()
        except Exception:
            pass


NEAR_STEM = "/catalogue/" + "section-" * 55


def nearmiss(port, clients, seconds):
    path = NEAR_STEM + "item/" + "7" * 40 + "x"
    threads = [threading.Thread(target=loop, args=(port, seconds, "GET", path)) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def adminwrites(port, count):
    def mapping(i):
        return ('{"id": "w%d", "request": {"method": "GET", "urlPath": "/w/%d", "headers": {"X-Key": {"matches": "k[0-9]+"}}},'
                ' "response": {"status": 200, "body": "w%d"}}' % (i, i, i))
    c = http.client.HTTPConnection(HOST, port, timeout=120)
    times = []
    for i in range(count):
        start = time.perf_counter()
        c.request("POST", "/__admin/mappings", body=mapping(i))
        c.getresponse().read()
        times.append(time.perf_counter() - start)
    c.request("DELETE", "/__admin/mappings")
    c.getresponse().read()
    body = '{"mappings": [' + ",".join(mapping(i) for i in range(count)) + "]}"
    start = time.perf_counter()
    c.request("POST", "/__admin/mappings/import", body=body)
    c.getresponse().read()
    imported = time.perf_counter() - start
    n = min(20, len(times))
    print("%.2f %.2f %.2f" % (sum(times[:n]) * 1000 / n, sum(times[-n:]) * 1000 / n, imported))


def bodyfile(port, readers, seconds):
    stop = time.time() + seconds
    sockets = []
    for _ in range(readers):
        try:
            s = socket.create_connection((HOST, port), timeout=5)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
            s.sendall(b"GET /huge HTTP/1.1\r\nHost: x\r\n\r\n")
            sockets.append(s)
        except OSError:
            pass

    def download():
        while time.time() < stop:
            try:
                c = http.client.HTTPConnection(HOST, port, timeout=30)
                c.request("GET", "/huge")
                r = c.getresponse()
                while time.time() < stop and r.read(1 << 20):
                    pass
                c.close()
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)

    fast = threading.Thread(target=download)
    fast.start()
    while time.time() < stop:
        for s in sockets:
            try:
                s.recv(65536)
            except OSError:
                pass
        time.sleep(0.1)
    fast.join()
    for s in sockets:
        s.close()


def longstubs(count):
    """Prints a mappings document of COUNT stubs with long URLs (for the near-miss row)."""
    items = ['{"request": {"method": "GET", "url": "%sitem/%d"}, "response": {"status": 200}}' % (NEAR_STEM, i)
             for i in range(count)]
    print('{"mappings": [' + ",".join(items) + "]}")


if __name__ == "__main__":
    if sys.argv[1] == "longstubs":
        longstubs(int(sys.argv[2]))
        sys.exit(0)
    command, port, *rest = sys.argv[1:]
    args = [int(x) for x in rest]
    {"probe": probe, "idle": idle, "slowloris": slowloris, "halfsent": halfsent, "regex": regex, "fill": fill, "admin": admin,
     "bigbody": bigbody, "unmatched": unmatched, "jsonbody": jsonbody, "nearmiss": nearmiss,
     "segbomb": segbomb, "bigtemplate": bigtemplate, "proxyloop": proxyloop, "silent": silent, "silenttls": silenttls,
     "adminwrites": adminwrites, "bodyfile": bodyfile}[command](int(port), *args)
