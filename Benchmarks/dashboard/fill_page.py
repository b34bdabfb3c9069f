"""Fills a stalled page's socket buffers: sends requests with 2,000-character paths (each a ~2 KiB event in the live
feed) over one keep-alive connection until GET /__admin/stubserver/requests/feeds says a feed is behind, for at
most SECONDS and 100,000 requests. Prints JSON: {"sent", "seconds", "behind"}.

Usage: python3 fill_page.py HOST PORT SECONDS
"""
import http.client
import json
import sys
import time

host, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
load = http.client.HTTPConnection(host, port, timeout=10)
admin = http.client.HTTPConnection(host, port, timeout=10)
segment = "x" * 2000
start = time.monotonic()
sent, behind = 0, 0
while time.monotonic() - start < seconds and sent < 100_000:
    for _ in range(100):
        load.request("GET", f"/fill/{sent}/{segment}")
        load.getresponse().read()
        sent += 1
    admin.request("GET", "/__admin/stubserver/requests/feeds")
    behind = json.loads(admin.getresponse().read())["behind"]
    if behind:
        break
print(json.dumps({"sent": sent, "seconds": round(time.monotonic() - start, 2), "behind": behind}))
