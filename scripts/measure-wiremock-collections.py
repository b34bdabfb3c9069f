#!/usr/bin/env python3
"""Serves public WireMock stub collections with stubserver and with the WireMock 2.35.1 jar side by side, sends both
requests generated from each stub's request pattern (plus a near-miss variant of each) and lists what differs.

Usage: measure-wiremock-collections.py STUBSERVER_BINARY WIREMOCK_JAR COLLECTIONS_DIR RESULTS_JSON

Each folder of COLLECTIONS_DIR is a WireMock root (mappings/, __files/); COLLECTIONS_DIR/SOURCES.tsv may name its
origin (name, repository, path, commit). For every root it records whether each server loads it (stubserver: exit
code and stderr, then a second try with --lenient; WireMock: the count of GET /__admin/mappings), then compares
status, stub headers and body. Unmatched answers (WireMock sends no Matched-Stub-Id) and stubs that render random
values or the current time are compared by status only. Ports 25000-25999 on 127.0.0.1 only; every process
started is stopped by its PID. Python 3 standard library only.
"""

import http.client
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.parse
from re import _constants as sre_constants
from re import _parser as sre_parse

TRANSPORT_HEADERS = {
    "date", "server", "content-length", "transfer-encoding", "connection", "keep-alive", "vary",
    "matched-stub-id", "matched-stub-name",
}
VOLATILE = re.compile(r"random|now|uuid|pickRandom|date\b|timestamp", re.IGNORECASE)
XPATH_STEP = r"(?:\*\[local-name\(\)\s*=\s*'([\w.-]+)'\]|(?:([\w.-]+):)?([\w.-]+))((?:\[[^\]]*\])*)"
START_TIMEOUT_SECONDS = 90
REQUEST_TIMEOUT_SECONDS = 15


def free_port():
    while True:
        port = random.randint(25000, 25999)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue


def example_for(pattern):
    """A string the (simple) regex fully matches, or None."""
    try:
        pattern = re.sub(r"(\\[sdwSDW])-", r"\1\\-", pattern)
        tree = sre_parse.parse(pattern.replace("\\Q", "").replace("\\E", ""))
        text = walk(tree)
        if text is not None and re.fullmatch(pattern, text, re.DOTALL):
            return text
    except Exception:
        pass
    return None


def walk(items):
    out = []
    for op, av in items:
        if op == sre_constants.LITERAL:
            out.append(chr(av))
        elif op == sre_constants.ANY:
            out.append("a")
        elif op == sre_constants.NOT_LITERAL:
            out.append("b" if av == ord("a") else "a")
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, sre_constants.POSSESSIVE_REPEAT):
            low, high, sub = av
            count = max(low, 1) if high != 0 else 0
            part = walk(sub)
            if part is None:
                return None
            out.append(part * min(count, 3 if high == sre_constants.MAXREPEAT else high))
        elif op == sre_constants.IN:
            char = pick_char(av)
            if char is None:
                return None
            out.append(char)
        elif op == sre_constants.SUBPATTERN:
            part = walk(av[-1])
            if part is None:
                return None
            out.append(part)
        elif op == sre_constants.BRANCH:
            part = walk(av[1][0])
            if part is None:
                return None
            out.append(part)
        elif op == sre_constants.AT:
            continue
        elif op == sre_constants.ATOMIC_GROUP:
            part = walk(av)
            if part is None:
                return None
            out.append(part)
        else:
            return None
    return "".join(out)


def pick_char(av):
    candidates = "a1xZ_-.b"
    negate = any(op == sre_constants.NEGATE for op, _ in av)
    compiled = re.compile(sre_compile_pattern(av))
    for char in candidates:
        if compiled.fullmatch(char):
            return char
    if not negate:
        for op, value in av:
            if op == sre_constants.LITERAL:
                return chr(value)
            if op == sre_constants.RANGE:
                return chr(value[0])
    return None


def sre_compile_pattern(av):
    parts, negate = [], ""
    for op, value in av:
        if op == sre_constants.NEGATE:
            negate = "^"
        elif op == sre_constants.LITERAL:
            parts.append(re.escape(chr(value)))
        elif op == sre_constants.RANGE:
            parts.append(f"{re.escape(chr(value[0]))}-{re.escape(chr(value[1]))}")
        elif op == sre_constants.CATEGORY:
            parts.append({"CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_SPACE": r"\s",
                          "CATEGORY_NOT_SPACE": r"\S", "CATEGORY_WORD": r"\w",
                          "CATEGORY_NOT_WORD": r"\W"}.get(str(value), ""))
    return "[" + negate + "".join(parts) + "]" if parts else "(?!)"


def value_for(pattern):
    """A value a string-value pattern accepts, or None when none can be made."""
    if not isinstance(pattern, dict):
        return None
    for key in ("equalTo", "contains", "equalToIgnoreCase", "equalToJson", "equalToXml", "binaryEqualTo"):
        if key in pattern:
            value = pattern[key]
            return value if isinstance(value, str) else json.dumps(value)
    if "matches" in pattern:
        return example_for(pattern["matches"])
    if "doesNotMatch" in pattern:
        return "zz-not-matching"
    if "matchesJsonPath" in pattern:
        return json_for_path(pattern["matchesJsonPath"])
    if "and" in pattern:
        values = [value_for(p) for p in pattern["and"]]
        return values[0] if values and all(v == values[0] for v in values) else None
    if "or" in pattern:
        return value_for(pattern["or"][0])
    return None


def json_for_path(expression):
    """A JSON document a simple `$.a.b` / `$.a[?(@.b == 'c')]` expression finds something in, or None."""
    if isinstance(expression, dict):
        inner = expression.get("expression")
        value = value_for({k: v for k, v in expression.items() if k != "expression"})
        return json_for_simple_path(inner, value) if isinstance(inner, str) else None
    return json_for_simple_path(expression, None)


def json_for_simple_path(expression, value):
    """Builds a document from `$`, `.key`, `..`, `['key']`, `[N]` and `[?(@.key OP literal)]` steps, or None."""
    path = expression if expression.startswith("$") else "$." + expression
    steps = re.findall(r"\.\.|\.[A-Za-z_][\w-]*|\['[^']*'\]|\[\d+\]|\[\?\(@\.[\w-]+\s*(?:==|>=|<=|>|<)\s*[^)]*\)\]|\.",
                       path[1:])
    if "".join(steps) != path[1:]:
        return None
    leaf = "x"
    if value is not None:
        try:
            leaf = json.loads(value)
        except ValueError:
            leaf = value
    for step in reversed(steps):
        if step in ("..", "."):
            continue
        if step.startswith("[?"):
            key, operator, literal = re.fullmatch(r"\[\?\(@\.([\w-]+)\s*(==|>=|<=|>|<)\s*(.*?)\s*\)\]", step).groups()
            literal = literal.strip("'\"") if literal[:1] in "'\"" else json.loads(literal)
            if operator != "==" and isinstance(literal, (int, float)):
                literal = literal + {">": 1, "<": -1}.get(operator, 0)
            leaf = [{key: literal}]
        elif step.startswith("[") and step[1:-1].isdigit():
            leaf = [leaf] * (int(step[1:-1]) + 1)
        else:
            leaf = {step.strip(".[]'"): leaf}
    return json.dumps(leaf)


def xml_for_xpaths(patterns):
    """An XML document the simple `matchesXPath` expressions (steps `name`, `p:name`, `*[local-name()='name']`,
    predicates `[.=v]`, `[text()='v']`, `[@a='v']`) all find something in, or None. Each later expression's elements
    go inside the deepest element of the first."""
    root, deepest = None, None
    for pattern in patterns:
        expression, namespaces = pattern["matchesXPath"], pattern.get("xPathNamespaces") or {}
        if not isinstance(expression, str):
            return None
        steps = [step for step in re.split(r"/(?![^\[]*\])", expression) if step]
        top, parent = None, deepest
        for step in steps:
            match = re.fullmatch(XPATH_STEP, step)
            if not match:
                return None
            prefix, name = match.group(2), match.group(1) or match.group(3)
            if prefix and prefix not in namespaces:
                return None
            element = {"name": f"{prefix}:{name}" if prefix else name, "ns": (prefix, namespaces.get(prefix)),
                       "attributes": {}, "text": "", "children": []}
            for predicate in re.findall(r"\[([^\]]*)\]", match.group(4)):
                value = re.fullmatch(r"\s*(?:\.|text\(\))\s*=\s*'?([^']*?)'?\s*", predicate)
                attribute = re.fullmatch(r"\s*@([\w.-]+)\s*=\s*'([^']*)'\s*", predicate)
                if value:
                    element["text"] = value.group(1)
                elif attribute:
                    element["attributes"][attribute.group(1)] = attribute.group(2)
                else:
                    return None
            if parent is not None:
                parent["children"].append(element)
            top = top or element
            parent = element
        root = root or top
        deepest = deepest or parent
    return render_xml(root) if root else None


def render_xml(element):
    from xml.sax.saxutils import escape, quoteattr
    prefix, uri = element["ns"]
    attributes = "".join(f" {k}={quoteattr(v)}" for k, v in element["attributes"].items())
    if prefix:
        attributes += f" xmlns:{prefix}={quoteattr(uri)}"
    inner = escape(element["text"]) + "".join(render_xml(child) for child in element["children"])
    return f"<{element['name']}{attributes}>{inner}</{element['name']}>"


def request_for(request):
    """The request a stub's request pattern asks for: dict, or (None, reason)."""
    method = request.get("method", "ANY")
    method = "GET" if method == "ANY" else method
    if "url" in request:
        path = request["url"]
    elif "urlPath" in request:
        path = request["urlPath"]
    elif "urlPathPattern" in request or "urlPattern" in request:
        path = example_for(request.get("urlPathPattern", request.get("urlPattern")))
        if path is None:
            return None, "no example for the URL regex"
    else:
        path = "/"
    query = []
    for name, pattern in (request.get("queryParameters") or {}).items():
        if isinstance(pattern, dict) and pattern.get("absent"):
            continue
        value = value_for(pattern)
        if value is None:
            return None, f"no value for query parameter {name}"
        query.append((name, value))
    if query:
        path += ("&" if "?" in path else "?") + urllib.parse.urlencode(query)
    headers = {}
    for name, pattern in (request.get("headers") or {}).items():
        if isinstance(pattern, dict) and pattern.get("absent"):
            continue
        value = value_for(pattern)
        if value is None:
            return None, f"no value for header {name}"
        headers[name] = value
    cookies = []
    for name, pattern in (request.get("cookies") or {}).items():
        value = value_for(pattern)
        if value is None:
            return None, f"no value for cookie {name}"
        cookies.append(f"{name}={value}")
    if cookies:
        headers["Cookie"] = "; ".join(cookies)
    if "basicAuthCredentials" in request:
        import base64
        credentials = request["basicAuthCredentials"]
        token = base64.b64encode(f"{credentials['username']}:{credentials['password']}".encode()).decode()
        headers["Authorization"] = "Basic " + token
    body = None
    body_patterns = request.get("bodyPatterns") or []
    if body_patterns and all(isinstance(p, dict) and "matchesXPath" in p for p in body_patterns):
        body = xml_for_xpaths(body_patterns)
        if body is None:
            return None, "no body for body pattern matchesXPath"
        body_patterns = []
    for pattern in body_patterns:
        value = value_for(pattern)
        if value is None:
            return None, f"no body for body pattern {list(pattern)[0] if pattern else '?'}"
        if body is None or "contains" not in pattern:
            body = value if body is None or "contains" in pattern else body
        if "contains" in pattern and value not in body:
            body += value
    return {"method": method, "path": path, "headers": headers, "body": body}, None


def near_miss(request, stub_request):
    """The request with one thing the stub asks for changed: a header, else the body, else a query value, else the
    path."""
    variant = dict(request, headers=dict(request["headers"]), variant="near-miss")
    named = [n for n in (stub_request.get("headers") or {}) if n in variant["headers"]]
    queried = [n for n, p in (stub_request.get("queryParameters") or {}).items()
               if not (isinstance(p, dict) and p.get("absent"))]
    if named:
        variant["headers"][named[0]] = "zz-wrong-value"
        variant["changed"] = f"header {named[0]}"
    elif stub_request.get("bodyPatterns"):
        variant["body"] = '{"zz": "other"}' if (request["body"] or "").lstrip()[:1] in "{[" else "zz-other"
        variant["changed"] = "body"
    elif queried:
        name = queried[0]
        variant["path"] = re.sub(r"([?&]" + re.escape(urllib.parse.quote_plus(name)) + r"=)[^&]*", r"\1zz-other",
                                 variant["path"], count=1)
        variant["changed"] = f"query {name}"
    else:
        split = variant["path"].split("?", 1)
        split[0] = split[0].rstrip("/") + "/zz-other"
        variant["path"] = "?".join(split)
        variant["changed"] = "path"
    return variant


def load_stubs(root):
    stubs = []
    for folder, _, files in sorted(os.walk(os.path.join(root, "mappings"))):
        for name in sorted(files):
            if not name.endswith(".json"):
                continue
            path = os.path.join(folder, name)
            try:
                with open(path, encoding="utf-8") as file:
                    document = json.load(file)
            except (ValueError, UnicodeDecodeError):
                stubs.append((path, None))
                continue
            for stub in document.get("mappings", [document]) if isinstance(document, dict) else []:
                stubs.append((os.path.relpath(path, root), stub))
    return stubs


def start(command, log_path):
    log = open(log_path, "w")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    log.close()
    return process


def wait_until_serving(port, process):
    """The stub count /__admin/mappings reports, or None when the process exited or never answered."""
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return None
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/__admin/mappings")
            response = connection.getresponse()
            if response.status == 200:
                document = json.loads(response.read())
                return document.get("meta", {}).get("total", len(document.get("mappings", [])))
        except (OSError, ValueError, http.client.HTTPException):
            pass
        time.sleep(0.3)
    return None


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def send(port, request):
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_SECONDS)
        body = request.get("body")
        connection.request(request["method"], request["path"], body=body.encode() if body is not None else None,
                           headers=request["headers"])
        response = connection.getresponse()
        answer = {"status": response.status, "headers": response.getheaders(), "body": response.read()}
        connection.close()
        return answer
    except Exception as error:  # a fault stub closes the connection: that is an answer to compare too
        return {"status": f"error {type(error).__name__}", "headers": [], "body": b""}


def stub_headers(headers):
    result = {}
    for name, value in headers:
        if name.lower() not in TRANSPORT_HEADERS:
            result.setdefault(name.lower(), []).append(value)
    return result


def compare(ours, theirs, volatile):
    reasons = []
    if ours["status"] != theirs["status"]:
        reasons.append("status")
    matched = any(name.lower() == "matched-stub-id" for name, _ in theirs["headers"])
    if matched and not volatile and not reasons:
        if stub_headers(ours["headers"]) != stub_headers(theirs["headers"]):
            reasons.append("headers")
        if ours["body"] != theirs["body"]:
            reasons.append("body")
    return reasons


def describe(answer):
    headers = {k: v for k, v in stub_headers(answer["headers"]).items()}
    return {"status": answer["status"], "headers": headers, "body": answer["body"][:200].decode("utf-8", "replace")}


def run_collection(binary, jar, root, logs):
    name = os.path.basename(root)
    result = {"name": name, "requests": 0, "wiremock_matched": 0, "differences": [], "skipped": []}
    stubs = load_stubs(root)
    result["stubs"] = len(stubs)
    our_port, their_port = free_port(), free_port()
    theirs = start(["java", "-jar", jar, "--port", str(their_port), "--bind-address", "127.0.0.1", "--root-dir", root,
                    "--local-response-templating", "--disable-banner"], os.path.join(logs, f"{name}.wiremock.log"))
    ours = None
    try:
        result["wiremock_loaded"] = wait_until_serving(their_port, theirs)
        for mode in ([], ["--lenient"]):
            log_path = os.path.join(logs, f"{name}.stubserver{''.join(mode)}.log")
            ours = start([binary, "--stubs", root, "--port", str(our_port), "--log-unmatched", "none"] + mode,
                         log_path)
            loaded = wait_until_serving(our_port, ours)
            key = "stubserver_lenient" if mode else "stubserver"
            if loaded is not None:
                result[key] = {"loaded": loaded}
                break
            stop(ours)
            result[key] = {"loaded": None, "exit": ours.returncode, "stderr": open(log_path).read()[-2000:]}
            ours = None
        if ours is None or result["wiremock_loaded"] is None:
            return result
        for path, stub in stubs:
            if stub is None:
                result["skipped"].append({"stub": path, "reason": "not valid JSON"})
                continue
            stub_request = stub.get("request") or {}
            request, reason = request_for(stub_request)
            if request is None:
                result["skipped"].append({"stub": path, "reason": reason})
                continue
            volatile = bool(VOLATILE.search(json.dumps(stub.get("response", {}))))
            for variant in (request, near_miss(request, stub_request)):
                result["requests"] += 1
                our_answer, their_answer = send(our_port, variant), send(their_port, variant)
                if any(header.lower() == "matched-stub-id" for header, _ in their_answer["headers"]):
                    result["wiremock_matched"] += 1
                reasons = compare(our_answer, their_answer, volatile)
                if reasons:
                    result["differences"].append({
                        "stub": path, "request": variant, "differs_in": reasons,
                        "stubserver": describe(our_answer), "wiremock": describe(their_answer)})
        return result
    finally:
        if ours is not None:
            stop(ours)
        stop(theirs)


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    binary, jar, collections, output = sys.argv[1:]
    logs = os.path.join(os.path.dirname(os.path.abspath(output)), "measure-logs")
    os.makedirs(logs, exist_ok=True)
    sources = {}
    sources_path = os.path.join(collections, "SOURCES.tsv")
    if os.path.isfile(sources_path):
        for line in open(sources_path):
            fields = line.rstrip("\n").split("\t")
            sources[fields[0]] = fields[1:]
    results = []
    for entry in sorted(os.listdir(collections)):
        root = os.path.join(collections, entry)
        if not os.path.isdir(os.path.join(root, "mappings")):
            continue
        result = run_collection(os.path.abspath(binary), os.path.abspath(jar), os.path.abspath(root), logs)
        result["source"] = sources.get(entry)
        results.append(result)
        ours = result.get("stubserver", {}).get("loaded")
        lenient = result.get("stubserver_lenient", {}).get("loaded")
        print(f"{entry}: {result['stubs']} stubs, WireMock {result['wiremock_loaded']}, stubserver {ours}"
              f"{f' (lenient {lenient})' if ours is None else ''}, {result['requests']} requests "
              f"({result['wiremock_matched']} matched in WireMock), {len(result['differences'])} difference(s), "
              f"{len(result['skipped'])} stub(s) skipped", flush=True)
    with open(output, "w") as file:
        json.dump(results, file, indent=1, default=str)
    total = sum(r["requests"] for r in results)
    different = sum(len(r["differences"]) for r in results)
    print(f"{len(results)} collections, {sum(r['stubs'] for r in results)} stubs, {total} requests, "
          f"{different} difference(s); details in {output}")


if __name__ == "__main__":
    main()
