"""The dashboard open in headless Chromium (driven over DevTools by .ci/browser/cdp.py) until killed: prints `open`
once its live feed is connected, and at the end (SIGTERM) the number of rows the page shows.

Usage: python3 browser_page.py DASHBOARD_URL
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".ci", "browser"))
from cdp import Chromium  # noqa: E402

stop = False


def finish(*_):
    global stop
    stop = True


signal.signal(signal.SIGTERM, finish)
with Chromium() as browser:
    browser.navigate(sys.argv[1])
    browser.wait_for("document.getElementById('live').textContent === 'live'", timeout=30)
    print("open", flush=True)
    while not stop:
        time.sleep(0.2)
    print("rows", browser.evaluate("document.querySelectorAll('#requests tbody tr').length"), flush=True)
