"""Loads URL in headless Chromium and prints the page's text after SECONDS, driving Chromium over the DevTools
protocol (its WebSocket) with the `websockets` package. Bounded: 30 s for Chromium to listen, 20 s per call.

Usage: python cdp_page_text.py URL SECONDS
"""
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from websockets.sync.client import connect

url, seconds = sys.argv[1], float(sys.argv[2])
probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
chrome = subprocess.Popen(
    ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", f"--remote-debugging-port={port}",
     f"--user-data-dir={tempfile.mkdtemp()}", "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    pages = None
    for _ in range(300):
        try:
            pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2))
            break
        except OSError:
            time.sleep(0.1)
    if pages is None:
        sys.exit("Chromium's DevTools endpoint did not answer within 30 s")
    target = next(page for page in pages if page["type"] == "page")["webSocketDebuggerUrl"]
    with connect(target, max_size=None) as devtools:
        calls = 0

        def call(method, **params):
            global calls
            calls += 1
            devtools.send(json.dumps({"id": calls, "method": method, "params": params}))
            while True:
                message = json.loads(devtools.recv(timeout=20))
                if message.get("id") == calls:
                    return message

        call("Page.navigate", url=url)
        time.sleep(seconds)
        print(call("Runtime.evaluate", expression="document.body.innerText")["result"]["result"].get("value"))
finally:
    chrome.terminate()
    chrome.wait(10)
