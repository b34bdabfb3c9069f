"""A dashboard that stops reading: opens the live feed (GET /__admin/stubserver/requests/live), reads its first bytes,
then holds the connection without reading until it is killed.

Usage: python3 stalled_page.py HOST PORT
"""
import socket
import sys
import time

page = socket.create_connection((sys.argv[1], int(sys.argv[2])))
page.sendall(b"GET /__admin/stubserver/requests/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
page.recv(4096)
print("stalled", flush=True)
while True:
    time.sleep(60)
