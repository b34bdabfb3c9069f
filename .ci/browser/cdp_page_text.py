"""Loads URL in headless Chromium and prints the page's text once it contains every EXPECTED string (checked every
0.1 s), or as it is after SECONDS; without EXPECTED, after SECONDS. Drives Chromium over the DevTools protocol (its
WebSocket) with the `websockets` package. Bounded: 30 s for Chromium to listen, 20 s per call, SECONDS for the text.

Usage: python cdp_page_text.py URL SECONDS [EXPECTED...]
"""
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from websockets.sync.client import connect

url, seconds, expected = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
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
        deadline = time.monotonic() + seconds
        while True:
            answer = call("Runtime.evaluate", expression="document.body ? document.body.innerText : ''")
            text = answer.get("result", {}).get("result", {}).get("value") or ""
            if (expected and all(part in text for part in expected)) or time.monotonic() >= deadline:
                break
            time.sleep(0.1)
        print(text)
finally:
    chrome.terminate()
    chrome.wait(10)
