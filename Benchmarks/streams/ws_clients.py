"""The client of bench-websockets.sh: opens CONNECTIONS WebSockets to ws://127.0.0.1:PORT/PATH one after another
(each must be welcomed or answer its first ping), then for WINDOW seconds each sends "ping" and waits for "pong",
again and again; measures the server process PID from /proc (VmRSS and threads before the first connection and
with all open, CPU ticks over the window). Prints one JSON object. Bounded: 120 s to connect, the window, a close.

Usage: python3 ws_clients.py PATH CONNECTIONS WINDOW PORT PID
"""
import asyncio
import json
import os
import sys
import time

from proc_stats import status as process_status, ticks as process_ticks

from websockets.asyncio.client import connect

PATH, CONNECTIONS, WINDOW, PORT, PID = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])



async def main():
    rss_before, threads_before = process_status(PID, "VmRSS"), process_status(PID, "Threads")
    sockets = []
    deadline = time.monotonic() + 120
    while len(sockets) < CONNECTIONS and time.monotonic() < deadline:
        ws = await connect(f"ws://127.0.0.1:{PORT}{PATH}", compression=None, open_timeout=30, max_queue=16)
        await ws.send("ping")
        while await asyncio.wait_for(ws.recv(), 30) != "pong":
            pass  # a welcome first, from the stub
        sockets.append(ws)
    await asyncio.sleep(1)
    rss_open, threads_open = process_status(PID, "VmRSS"), process_status(PID, "Threads")
    counts = [0] * len(sockets)
    stop = time.monotonic() + WINDOW

    async def loop(index, ws):
        while time.monotonic() < stop:
            await ws.send("ping")
            if await asyncio.wait_for(ws.recv(), 30) == "pong":
                counts[index] += 1

    start_ticks = process_ticks(PID)
    await asyncio.gather(*(loop(i, ws) for i, ws in enumerate(sockets)))
    window_ticks = process_ticks(PID) - start_ticks
    for ws in sockets:
        await ws.close()
    print(json.dumps({
        "opened": len(sockets), "count": sum(counts), "silent": sum(1 for c in counts if c == 0),
        "rss_before_kb": rss_before, "rss_open_kb": rss_open, "threads_before": threads_before,
        "threads_open": threads_open, "cpu_ticks": window_ticks, "ticks_per_second": os.sysconf("SC_CLK_TCK"),
    }))


asyncio.run(main())
