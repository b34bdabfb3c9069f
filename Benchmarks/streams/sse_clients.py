"""The client of bench-streams.sh: opens CONNECTIONS event streams (GET PATH) to 127.0.0.1:PORT, one after
another, then counts the events (`data:` lines) each receives for WINDOW seconds, and measures the server
process PID from /proc: VmRSS and threads before the first stream, once all are open, and CPU ticks over the
window. Prints one JSON object. Every wait is bounded: connecting 60 s in all, the window, then a close.

Usage: python3 sse_clients.py PATH CONNECTIONS WINDOW PORT PID
"""
import asyncio
import json
import os
import sys
import time

from proc_stats import status as process_status, ticks as process_ticks

PATH, CONNECTIONS, WINDOW, PORT, PID = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])



async def main():
    counts = [0] * CONNECTIONS
    counting = asyncio.Event()
    streams = []

    async def stream(index, reader):
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                if counting.is_set() and b"data:" in line:
                    counts[index] += 1
        except (ConnectionError, asyncio.CancelledError):
            return

    rss_before, threads_before = process_status(PID, "VmRSS"), process_status(PID, "Threads")
    deadline = time.monotonic() + 60
    for index in range(CONNECTIONS):
        if time.monotonic() > deadline:
            break
        reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
        writer.write(f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
        streams.append((writer, asyncio.create_task(stream(index, reader))))
    await asyncio.sleep(1)
    rss_open, threads_open = process_status(PID, "VmRSS"), process_status(PID, "Threads")
    start_ticks = process_ticks(PID)
    counting.set()
    await asyncio.sleep(WINDOW)
    counting.clear()
    window_ticks = process_ticks(PID) - start_ticks
    for writer, task in streams:
        task.cancel()
        writer.close()
    print(json.dumps({
        "opened": len(streams), "count": sum(counts), "silent": sum(1 for c in counts[:len(streams)] if c == 0),
        "rss_before_kb": rss_before, "rss_open_kb": rss_open, "threads_before": threads_before,
        "threads_open": threads_open, "cpu_ticks": window_ticks, "ticks_per_second": os.sysconf("SC_CLK_TCK"),
    }))


asyncio.run(main())
