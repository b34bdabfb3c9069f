"""A small synchronous client of Chromium's DevTools protocol, for the end-to-end browser checks: starts headless
Chromium, drives one page over its WebSocket (the `websockets` package), and stops it. Every wait is bounded.

    with Chromium() as browser:
        browser.navigate("http://127.0.0.1:8080/__admin/dashboard")
        browser.wait_for("document.querySelectorAll('#requests tbody tr').length > 0")
        browser.screenshot("dashboard.png", width=1366, height=800)
"""
import base64
import json
import socket
import subprocess
import tempfile
import time
import urllib.request

from websockets.sync.client import connect


class BrowserError(Exception):
    pass


class Chromium:
    def __init__(self, timeout=20):
        self.timeout = timeout
        self.calls = 0
        self.errors = []  # uncaught exceptions and console errors of the page
        self.loaded = False  # the page's load event fired since the last navigate()

    def __enter__(self):
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        self.process = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             f"--remote-debugging-port={port}", f"--user-data-dir={tempfile.mkdtemp()}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.port = port
        self.devtools = self._attach(self._first_page())
        self.call("Page.enable")
        self.call("Runtime.enable")
        return self

    def __exit__(self, *exc):
        try:
            self.devtools.close()
        finally:
            self.process.terminate()
            self.process.wait(10)

    def _targets(self):
        return json.load(urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=2))

    def _first_page(self):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                return next(page for page in self._targets() if page["type"] == "page")
            except (OSError, StopIteration):
                time.sleep(0.1)
        raise BrowserError("Chromium's DevTools endpoint did not answer within 30 s")

    def _attach(self, page):
        self.target_id = page["id"]
        return connect(page["webSocketDebuggerUrl"], max_size=None)

    def _note(self, message):
        method = message.get("method")
        params = message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.errors.append(details.get("exception", {}).get("description") or details.get("text"))
        elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
            self.errors.append(" ".join(str(arg.get("value", arg.get("description"))) for arg in params["args"]))
        elif method == "Page.loadEventFired":
            self.loaded = True

    def call(self, method, **params):
        self.calls += 1
        self.devtools.send(json.dumps({"id": self.calls, "method": method, "params": params}))
        deadline = time.monotonic() + self.timeout
        while True:
            message = json.loads(self.devtools.recv(timeout=max(0.1, deadline - time.monotonic())))
            if message.get("id") == self.calls:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._note(message)

    def navigate(self, url):
        self.loaded = False
        self.call("Page.navigate", url=url)

    def wait_for_load(self, timeout=20):
        """Returns as soon as the page's load event fired (its deferred script has run; nothing else is
        waited for: no fetch, no timer, no virtual time)."""
        deadline = time.monotonic() + timeout
        while not self.loaded:
            if time.monotonic() >= deadline:
                raise BrowserError(f"the page's load event did not fire within {timeout} s")
            self._note(json.loads(self.devtools.recv(timeout=max(0.1, deadline - time.monotonic()))))

    def on_new_document(self, source):
        """Runs `source` in every page loaded from now on, before the page's own scripts."""
        self.call("Page.addScriptToEvaluateOnNewDocument", source=source)

    def block(self, *patterns):
        """Fails the page's requests to URLs matching the patterns (`*` wildcards), as if the network refused."""
        self.call("Network.enable")
        self.call("Network.setBlockedURLs", urls=list(patterns))

    def capture(self, path):
        """A screenshot at the current size and colour scheme, taken at once (no settling wait)."""
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def set_size(self, width, height, dark=False):
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=width < 600)
        self.call("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}])

    def evaluate(self, expression, await_promise=False):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=await_promise)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails'].get('exception', {}).get('description')}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout=15, what=None):
        """Polls `expression` until it is truthy; raises, with the page's text, when `timeout` passes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except BrowserError:
                value = None
            if value:
                return value
            time.sleep(0.1)
        text = self.evaluate("document.body ? document.body.innerText : ''")
        raise BrowserError(f"timed out after {timeout} s waiting for {what or expression}; the page shows:\n{text}")

    def click(self, selector):
        self.evaluate(f"document.querySelector({json.dumps(selector)}).click()")

    def type_into(self, selector, text):
        self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); e.value = {json.dumps(text)};"
            " e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); })()")

    def screenshot(self, path, width, height, dark=False):
        """A screenshot once the page has taken the new size and colour scheme and painted a frame with them."""
        self.set_size(width, height, dark)
        scheme = "true" if dark else "false"
        self.wait_for(f"innerWidth === {width} && matchMedia('(prefers-color-scheme: dark)').matches === {scheme}",
                      what=f"the page at {width}x{height}, {'dark' if dark else 'light'}")
        # Two animation frames: layout and paint at the new size are done.
        self.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))",
                      await_promise=True)
        self.capture(path)

    def close_page(self):
        """Closes the page's tab (its connections with it), leaving the browser running on a new blank one."""
        new = json.loads(urllib.request.urlopen(
            urllib.request.Request(f"http://127.0.0.1:{self.port}/json/new?about:blank", method="PUT"), timeout=5).read())
        urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/close/{self.target_id}", timeout=5).read()
        self.devtools.close()
        self.devtools = self._attach(new)
        self.call("Page.enable")
        self.call("Runtime.enable")
