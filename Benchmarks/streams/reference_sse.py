"""The reference for bench-streams.sh: a plain asyncio (standard library) server that answers any GET with a
chunked text/event-stream and writes `data: tick N` every INTERVAL seconds, COUNT times, then keeps the
response open. Prints `Listening on http://127.0.0.1:PORT/` once listening.

Usage: python3 reference_sse.py COUNT INTERVAL
"""
import asyncio
import sys

COUNT, INTERVAL = int(sys.argv[1]), float(sys.argv[2])
HEAD = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n")


async def serve(reader, writer):
    try:
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            pass
        writer.write(HEAD)
        await writer.drain()
        for n in range(COUNT):
            await asyncio.sleep(INTERVAL)
            event = b"data: tick %d\n\n" % n
            writer.write(b"%x\r\n%s\r\n" % (len(event), event))
            await writer.drain()
        await reader.read()  # open until the client leaves
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", 0, backlog=2048)
    print(f"Listening on http://127.0.0.1:{server.sockets[0].getsockname()[1]}/", flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
