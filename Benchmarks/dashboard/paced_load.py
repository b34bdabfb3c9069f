"""Sends requests at a fixed rate over one keep-alive connection for a while, and prints what it measured as JSON:
{"sent", "errors", "rate" (achieved per second), "p50_ms", "p99_ms"}. Every UNMATCHED_EVERY-th request is to a
path no stub matches (its near-miss report is built and journaled); the others to /users/octocat.

Usage: python3 paced_load.py HOST PORT RATE SECONDS [UNMATCHED_EVERY]
"""
import http.client
import json
import sys
import time

host, port, rate, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
unmatched_every = int(sys.argv[5]) if len(sys.argv) > 5 else 5
connection = http.client.HTTPConnection(host, port, timeout=10)
latencies, errors, sent = [], 0, 0
start = time.monotonic()
deadline = start + seconds
next_at = start
while True:
    now = time.monotonic()
    if now >= deadline:
        break
    if now < next_at:
        time.sleep(next_at - now)
    path = f"/nothing/{sent}" if sent % unmatched_every == 0 else "/users/octocat"
    began = time.monotonic()
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        if response.status not in (200, 404):
            errors += 1
    except (OSError, http.client.HTTPException):
        errors += 1
        connection.close()
        connection = http.client.HTTPConnection(host, port, timeout=10)
    latencies.append(time.monotonic() - began)
    sent += 1
    next_at = max(next_at + 1 / rate, began)  # no catching up in bursts after a stall
elapsed = time.monotonic() - start
latencies.sort()
print(json.dumps({"sent": sent, "errors": errors, "rate": sent / elapsed,
                  "p50_ms": 1000 * latencies[len(latencies) // 2],
                  "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]}))
