"""The dashboard of a server that is already running (in Docker, say), in headless Chromium: the page loads, its live
feed opens, a request sent with curl appears without a reload, and opening it shows its status. A screenshot goes to
SCREENSHOT when given.

Usage: python dashboard_at.py BASE_URL [SCREENSHOT]
"""
import subprocess
import sys
import time

from cdp import Chromium

base = sys.argv[1].rstrip("/")
path = f"/dashboard-at/{int(time.time() * 1000)}"
with Chromium() as browser:
    browser.navigate(base + "/__admin/dashboard")
    browser.wait_for("document.getElementById('live').textContent === 'live'", what="the live feed")
    subprocess.run(["curl", "-s", "-o", "/dev/null", base + path], timeout=30, check=True)
    row = f"[...document.querySelectorAll('#requests tbody tr')].find(r => r.innerText.includes('{path}'))"
    browser.wait_for(f"!!{row}", what="the request to appear without a reload")
    browser.evaluate(f"{row}.click()")
    browser.wait_for("document.getElementById('detail').innerText.includes('404')", what="the request's detail")
    if len(sys.argv) > 2:
        browser.screenshot(sys.argv[2], width=1366, height=800)
    if browser.errors:
        sys.exit(f"FAIL: the page logged errors: {browser.errors}")
print(f"ok: the dashboard at {base} showed GET {path} live, and its detail")
