"""The dashboard in headless Chromium, as a developer uses it: requests journaled before the page opens are on it as soon
as it has loaded (screenshot at the load event, the live feed blocked; and a plain `chromium --headless --screenshot`),
never "No requests yet" while there are some; requests sent with curl appear live, an unmatched one shows its near miss and becomes a stub that the next request matches, a scenario is set and reset from the page,
values from requests are shown as text and never run, a token-protected server asks for its token, an isolated
server and a virtual host show their own requests, and closing the tab frees its live feed. Screenshots at a laptop
and a phone size, light and dark, go to OUT_DIR.

Usage: python dashboard_check.py STUBSERVER_BINARY STUBS_DIR OUT_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

from cdp import Chromium

binary, stubs, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out, exist_ok=True)
servers = []


def start(*flags):
    log = open(os.path.join(out, f"server-{len(servers) + 1}.log"), "w")
    process = subprocess.Popen([binary, "--stubs", stubs, "--port", "0", *flags], stdout=subprocess.PIPE, stderr=log, text=True)
    servers.append(process)
    urls = {}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        listening = re.match(r"Listening on (http://\S+?)/?$", line.strip())
        host = re.match(r"Host (\S+) on (http://\S+?)/?$", line.strip())
        if listening:
            urls["main"] = listening.group(1)
        elif host:
            urls[host.group(1)] = host.group(2)
        if not line or "main" in urls and ("--host-alias" not in flags or len(urls) > 1):
            break
    if "main" not in urls:
        sys.exit(f"FAIL: stubserver {' '.join(flags)} did not start; see {log.name}")
    subprocess.Popen(["cat"], stdin=process.stdout, stdout=subprocess.DEVNULL)  # keep draining stdout
    return urls


def curl(url, *args):
    return subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", *args, url], capture_output=True,
                          text=True, timeout=30).stdout


def admin(base, path, method="GET", body=None, token=None):
    request = urllib.request.Request(base + "/__admin/" + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
        return json.loads(text) if text else None


def rows(browser):
    return browser.evaluate("[...document.querySelectorAll('#requests tbody tr')].map(r => r.innerText)")


def wait_row(browser, text, what):
    browser.wait_for(f"[...document.querySelectorAll('#requests tbody tr')].some(r => r.innerText.includes({json.dumps(text)}))",
                     what=what)


def check(condition, message):
    if not condition:
        sys.exit("FAIL: " + message)
    print("ok:", message)


# Run in every page before its own script: each state the requests list's note is in between two tasks (so each one
# that could be painted), in window.__emptyStates ("(hidden)" when hidden), and every CSP violation, in window.__csp.
WATCH_PAGE = """
window.__emptyStates = []; window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
new MutationObserver(() => {
  const note = document.getElementById('requests-empty');
  if (!note) return;
  const state = note.hidden ? '(hidden)' : note.textContent;
  if (window.__emptyStates[window.__emptyStates.length - 1] !== state) window.__emptyStates.push(state);
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
"""

PAGE_STATE = """(() => {
  const note = document.getElementById('requests-empty');
  return { rows: [...document.querySelectorAll('#requests tbody tr')].map((r) => r.innerText),
    note: note.hidden ? null : note.textContent, counts: document.getElementById('counts').textContent,
    live: document.getElementById('live').textContent, shown: window.__emptyStates, csp: window.__csp,
    xss: window.__xss === undefined ? null : String(window.__xss),
    markup: document.querySelectorAll('#requests tbody img, #requests tbody script').length,
    stubs: document.getElementById('stubs-count').textContent,
    scenarios: document.getElementById('scenarios-empty').hidden ? null : document.getElementById('scenarios-empty').textContent,
    recording: document.getElementById('recording-status').textContent };
})()"""


def never_said_empty(state):
    return not any(shown.startswith("No requests yet") for shown in state["shown"])


def at_load(url, screenshot):
    """Opens `url` in a fresh headless Chromium with the live feed blocked, takes a screenshot as soon as the load
    event fired (no virtual-time budget, no wait for anything else), and returns the page's state at that moment."""
    with Chromium() as browser:
        browser.on_new_document(WATCH_PAGE)
        browser.block("*/__admin/stubserver/requests/live")
        browser.set_size(1366, 800)
        browser.navigate(url)
        browser.wait_for_load()
        browser.capture(screenshot)
        state = browser.evaluate(PAGE_STATE)
        state["errors"] = browser.errors
        return state


try:
    main = start("--host-alias", "api.example.com")
    base = main["main"]
    admin(base, "mappings/import", "POST", json.load(open(os.path.join(os.path.dirname(__file__), "scenario.json"))))

    # Requests journaled before the page opens are on it when it has loaded, not "No requests yet" until the live
    # feed's first batch: the feed is blocked here, so only the page itself can show them. Their values stay text:
    # a stub name and a request target holding </script> neither end the page's data nor run.
    markup = '</script><script>window.__xss = 4</script><img src=x onerror="window.__xss = 5">'
    admin(base, "mappings", "POST", {"name": markup, "request": {"method": "GET", "url": "/named"}, "response": {"status": 200}})
    journaled = ["/users/octocat", "/named", "/x/</script><script>window.__xss=6</script>", "/hello", "/users/octocat?page=2",
                 "/missing", "/hello?again"]
    for path in journaled:
        curl(base + path)
    at_load_png = os.path.join(out, "requests-at-load-1366x800.png")
    state = at_load(base + "/__admin/dashboard", at_load_png)
    print("page at its load event:", json.dumps({key: state[key] for key in ("note", "counts", "live", "shown", "stubs", "scenarios", "recording")}))
    check(state["live"] != "live", f"the live feed did not answer (blocked): the status says '{state['live']}'")
    check(len(state["rows"]) == len(journaled) and "/hello?again" in state["rows"][0] and "/users/octocat" in state["rows"][-1],
          f"at the load event, the {len(journaled)} journaled requests are rows, newest first ({at_load_png})")
    check(state["note"] is None and state["counts"] == f"{len(journaled)} requests" and never_said_empty(state),
          f"the page never said 'No requests yet' (its note went {state['shown']}), and counts {state['counts']}")
    check(any(markup in row for row in state["rows"]) and any("/x/</script><script>" in row for row in state["rows"]),
          "a stub name and a target holding </script> and <img onerror> show as text")
    check(state["xss"] is None and state["markup"] == 0 and state["csp"] == [] and not state["errors"],
          f"nothing from the page's data ran, no CSP violation, no script error ({state['xss']}, {state['csp']}, {state['errors']})")
    check(state["stubs"] in ("Loading stubs…",) or "in the order requests try them" in state["stubs"],
          f"the stubs panel says it is loading or counts the stubs: '{state['stubs']}'")
    check(state["scenarios"] == "Loading scenarios…" and state["recording"] == "loading…",
          "the scenarios and recording panels, not opened yet, say they are loading (not 'No stub names a scenario')")

    # The same as a plain headless Chromium run shows it (no DevTools, no virtual time, the feed not blocked).
    plain_png = os.path.join(out, "requests-plain-headless-1366x800.png")
    plain = ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=1366,800"]
    subprocess.run([*plain, f"--user-data-dir={tempfile.mkdtemp()}", f"--screenshot={plain_png}", base + "/__admin/dashboard"],
                   capture_output=True, timeout=120)
    dom = subprocess.run([*plain, f"--user-data-dir={tempfile.mkdtemp()}", "--dump-dom", base + "/__admin/dashboard"],
                         capture_output=True, text=True, timeout=120).stdout
    check(os.path.getsize(plain_png) > 0 and dom.count("<tr data-seq=") == len(journaled)
          and re.search(r'<p id="requests-empty"[^>]*\bhidden', dom) is not None,
          f"chromium --headless --dump-dom: {len(journaled)} rows and the empty note hidden (screenshot {plain_png})")

    with Chromium() as browser:
        browser.call("Page.setBypassCSP", enabled=False)
        browser.navigate(base + "/__admin/dashboard")
        browser.wait_for("document.getElementById('live').textContent === 'live'", what="the live feed")
        check(curl(base + "/users/octocat") == "200", "GET /users/octocat answered 200")
        browser.wait_for("(() => { const top = document.querySelector('#requests tbody tr');"
                         " return top && top.cells[3].textContent === '/users/octocat'; })()",
                         what="the request to appear on top without a reload")
        check("GitHub user octocat" in rows(browser)[0], "the new row names the stub that answered")

        # An unmatched request: its near miss, then a stub made from it that the next request matches.
        check(curl(base + "/orders/42?expand=items") == "404", "GET /orders/42 is unmatched")
        wait_row(browser, "/orders/42", "the unmatched request")
        browser.evaluate("[...document.querySelectorAll('#requests tbody tr')].find(r => r.innerText.includes('/orders/42')).click()")
        browser.wait_for("!!document.getElementById('make-stub-open')", what="the unmatched request's detail")
        detail = browser.evaluate("document.getElementById('detail').innerText")
        check("No stub matched GET /orders/42" in detail and "Closest stubs" in detail, "the detail shows the near-miss report")
        browser.click("#make-stub-open")
        mapping = json.loads(browser.evaluate("document.getElementById('make-stub-json').value"))
        check(mapping["request"]["urlPath"] == "/orders/42" and mapping["request"]["queryParameters"]["expand"] == {"equalTo": "items"},
              "the proposed stub matches the request's path and query")
        browser.click("#make-stub-add")
        browser.wait_for("document.getElementById('make-stub-message').textContent.startsWith('Added stub')", what="the stub to be added")
        check(curl(base + "/orders/42?expand=items") == "200", "the next GET /orders/42?expand=items matches the new stub")
        browser.wait_for("[...document.querySelectorAll('#requests tbody tr')].some(r => r.innerText.includes('/orders/42') && r.innerText.includes('made in the dashboard'))",
                         what="the second /orders/42 to show the new stub")
        print("ok: the page shows the new stub answering")

        # Values from requests are text: no script from a request runs, and the markup shows as written.
        payload = "<script>window.__xss = 1</script><img src=x onerror=\"window.__xss = 2\">"
        curl(base + "/xss/%3Cimg%20src=x%20onerror=window.__xss=3%3E", "-H", "Content-Type: text/html", "--data-binary", payload)
        wait_row(browser, "/xss/", "the XSS request")
        browser.evaluate("[...document.querySelectorAll('#requests tbody tr')].find(r => r.innerText.includes('/xss/')).click()")
        browser.wait_for("document.getElementById('detail').innerText.includes('<script>window.__xss')", what="the body shown as text")
        # Until an image of our own with the same failing source has failed: an <img onerror> the page had made
        # (loading the same URL, earlier) would have run by then.
        browser.evaluate("new Promise(done => { const probe = new Image(); probe.onerror = probe.onload = () => done(true);"
                         " probe.src = 'x'; })", await_promise=True)
        check(browser.evaluate("window.__xss === undefined && document.querySelectorAll('#detail script, #detail img').length === 0"),
              "a request body holding <script> and <img onerror> shows as text and runs nothing")

        # Scenarios: set from the page, then reset.
        browser.click("button[data-tab='scenarios']")
        browser.wait_for("!!document.querySelector(\"#scenarios tr[data-scenario='cart']\")", what="the cart scenario")
        browser.evaluate("(() => { const row = document.querySelector(\"#scenarios tr[data-scenario='cart']\");"
                         " row.querySelector('select').value = 'Has item'; row.querySelector('button').click(); })()")
        browser.wait_for("document.querySelector(\"#scenarios tr[data-scenario='cart'] .state\").textContent === 'Has item'",
                         what="the scenario state set from the page")
        check(curl(base + "/cart") == "200", "GET /cart matches the stub of the state set from the page")
        browser.click("#scenarios-reset")
        browser.wait_for("document.querySelector(\"#scenarios tr[data-scenario='cart'] .state\").textContent === 'Started'",
                         what="the reset")
        check(admin(base, "scenarios")["scenarios"][0]["state"] == "Started", "reset from the page put the scenario back to Started")

        # Stubs in match order, with use counts and the never used ones.
        browser.click("button[data-tab='stubs']")
        browser.wait_for("document.getElementById('stubs-count').textContent.includes('never used')", what="the stubs table")
        stubs_text = browser.evaluate("document.getElementById('stubs').innerText")
        check("GitHub user octocat" in stubs_text and "never used" in stubs_text and "cart" in stubs_text,
              "the stubs view lists stubs with files, scenario and use counts")
        browser.screenshot(os.path.join(out, "stubs-1366x800.png"), 1366, 800)

        # A virtual host's requests show its name.
        alias = main.get("api.example.com")
        check(alias is not None, "the server listens for the virtual host api.example.com")
        curl(alias + "/users/octocat")
        browser.click("button[data-tab='requests']")
        browser.wait_for("[...document.querySelectorAll('#requests tbody tr')].some(r => r.innerText.includes('api.example.com'))",
                         what="the virtual host's request")
        print("ok: a request to the virtual host shows api.example.com")

        for name, width, height, dark in [("laptop", 1366, 800, False), ("laptop-dark", 1366, 800, True),
                                          ("narrow", 390, 844, False), ("narrow-dark", 390, 844, True)]:
            browser.screenshot(os.path.join(out, f"requests-{name}-{width}x{height}.png"), width, height, dark)

        # Closing the tab frees its live feed.
        check(admin(base, "stubserver/requests/feeds")["open"] == 1, "one live feed is open while the page is")
        browser.close_page()
        deadline = time.monotonic() + 10
        while admin(base, "stubserver/requests/feeds")["open"] != 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        check(admin(base, "stubserver/requests/feeds")["open"] == 0, "closing the tab closed its live feed")

        # An isolated server has its own dashboard and journal.
        isolated = admin(base, "servers", "POST", {})
        browser.navigate(isolated["baseUrl"] + "/__admin/dashboard")
        browser.wait_for("document.getElementById('live').textContent === 'live'", what="the isolated server's feed")
        check(browser.evaluate("(() => { const n = document.getElementById('requests-empty'); return !n.hidden && n.textContent; })()")
              .startswith("No requests yet"), "a server whose journal is empty says 'No requests yet'")
        curl(isolated["baseUrl"] + "/only/here")
        wait_row(browser, "/only/here", "the isolated server's request")
        check(not any("/users/octocat" in row for row in rows(browser)), "the isolated server's page shows only its own requests")
        check(not browser.errors, f"no script errors on the page ({browser.errors})")

    # A token-protected server, requests already journaled: the page (which a browser loads without the token, so it
    # carries no requests) says it is loading, then asks for the token, then shows them; never "No requests yet".
    secured = start("--admin-token", "s3cret")["main"]
    curl(secured + "/hello?before-the-page")
    with Chromium() as browser:
        browser.on_new_document(WATCH_PAGE)
        browser.set_size(1366, 800)
        browser.navigate(secured + "/__admin/dashboard")
        browser.wait_for_load()
        token_png = os.path.join(out, "requests-at-load-token-1366x800.png")
        browser.capture(token_png)
        state = browser.evaluate(PAGE_STATE)
        check(state["note"] in ("Loading requests…", "Requests show here once this tab has the admin token.") and state["counts"] == "",
              f"with a token, at the load event the list says '{state['note']}' ({token_png})")
        browser.wait_for("!document.getElementById('token-form').hidden", what="the token form")
        check(browser.evaluate("document.getElementById('live').textContent") == "needs the admin token",
              "without the token, the page asks for it and opens no feed")
        browser.wait_for("document.getElementById('stubs-count').textContent === 'Shown once this tab has the admin token.'",
                         what="the stubs panel to say it needs the token")
        check(browser.evaluate("document.getElementById('requests-empty').textContent")
              == "Requests show here once this tab has the admin token.", "the requests list says it needs the token")
        browser.type_into("#token-input", "s3cret")
        browser.evaluate("document.getElementById('token-form').requestSubmit()")
        browser.wait_for("document.getElementById('live').textContent === 'live'", what="the feed with the token")
        wait_row(browser, "/hello?before-the-page", "the request journaled before the page, from the feed's first batch")
        browser.wait_for("document.getElementById('stubs-count').textContent.includes('in the order requests try them')",
                         what="the stubs panel once the token is given")
        curl(secured + "/users/octocat")
        wait_row(browser, "/users/octocat", "a request on the token-protected server")
        shown = browser.evaluate("window.__emptyStates")
        check(not any(text.startswith("No requests yet") for text in shown),
              f"the list never said 'No requests yet' while a request was journaled (its note went {shown})")
        check(browser.evaluate("sessionStorage.getItem('stubserver.adminToken') === 's3cret' && localStorage.length === 0"),
              "the token is kept for the tab only (sessionStorage)")
    print("PASS: dashboard checks; screenshots in", out)
finally:
    for process in servers:
        process.terminate()
        process.wait(10)
