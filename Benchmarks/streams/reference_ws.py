"""The WebSocket reference of bench-websockets.sh: Python's `websockets` (asyncio) server answering every
message "pong". Prints `Listening on http://127.0.0.1:PORT/` once listening.

Usage: python3 reference_ws.py   (with an interpreter that has websockets)
"""
import asyncio
from websockets.asyncio.server import serve


async def pong(connection):
    async for _ in connection:
        await connection.send("pong")


async def main():
    async with serve(pong, "127.0.0.1", 0, compression=None, max_queue=16) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print(f"Listening on http://127.0.0.1:{port}/", flush=True)
        await asyncio.get_running_loop().create_future()


asyncio.run(main())
