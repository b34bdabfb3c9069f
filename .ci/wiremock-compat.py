#!/usr/bin/env python3
"""Serves each stub collection with stubserver and with the WireMock 2.35.1 jar, sends both the same requests and
compares status, headers and bodies.

Usage: wiremock-compat.py STUBSERVER_BINARY WIREMOCK_JAR COLLECTIONS_DIR

Each folder of COLLECTIONS_DIR is a WireMock root (mappings/, __files/) with a requests.json: a list of
{"method", "path", "headers"?, "body"?, "compare"?, "status"?}, sent in order (scenario steps depend on it). "compare" is
"all" (the default: status, the headers WireMock sends except transport ones, and the body byte for byte) or
"status" (unmatched requests, whose 404 bodies are each server's own report, and 500s whose text differs).
"status", when given, is what both must answer: a check of the collection itself. "exactHeaders" lists transport
headers (by lower-case name) that must also be the same, every value in order: a stub's own `Date` or `Server`, say.
Exits 1 listing every difference; only loopback addresses are used and every process started is stopped.
"""

import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

# Headers that belong to the transport or the server, not to a stub.
TRANSPORT_HEADERS = {
    "date", "server", "content-length", "transfer-encoding", "connection", "keep-alive", "vary",
    "matched-stub-id", "matched-stub-name",
}
START_TIMEOUT_SECONDS = 60
REQUEST_TIMEOUT_SECONDS = 10


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_serving(port, process, name, log_path):
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"FAIL: {name} exited {process.returncode} at startup:\n{open(log_path).read()}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/__admin/mappings")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"FAIL: {name} did not answer on port {port} within {START_TIMEOUT_SECONDS} s")


def send(port, request):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_SECONDS)
    body = request.get("body")
    headers = dict(request.get("headers", {}))
    connection.request(request["method"], request["path"], body=body.encode() if body is not None else None,
                       headers=headers)
    response = connection.getresponse()
    answer = (response.status, response.getheaders(), response.read())
    connection.close()
    return answer


def stub_headers(headers, exact=()):
    """The headers a stub set, and the transport headers named in `exact`: name (lower-cased) → values in order."""
    result = {}
    for name, value in headers:
        if name.lower() not in TRANSPORT_HEADERS or name.lower() in exact:
            result.setdefault(name.lower(), []).append(value)
    return result


def compare(collection, index, request, ours, theirs):
    label = f"{collection} #{index} {request['method']} {request['path']}"
    differences = []
    if ours[0] != theirs[0]:
        differences.append(f"{label}: status {ours[0]}, WireMock {theirs[0]}")
    elif "status" in request and theirs[0] != request["status"]:
        differences.append(f"{label}: both answered {theirs[0]}, the collection expects {request['status']}")
    if request.get("compare", "all") == "all":
        exact = set(request.get("exactHeaders", []))
        our_headers, their_headers = stub_headers(ours[1], exact), stub_headers(theirs[1], exact)
        for name in sorted(set(our_headers) | set(their_headers)):
            if our_headers.get(name) != their_headers.get(name):
                differences.append(
                    f"{label}: header {name}: {our_headers.get(name)}, WireMock {their_headers.get(name)}")
        if ours[2] != theirs[2]:
            differences.append(f"{label}: body {ours[2][:300]!r}, WireMock {theirs[2][:300]!r}")
    return differences


def run_collection(binary, jar, root, logs):
    name = os.path.basename(root)
    with open(os.path.join(root, "requests.json")) as file:
        requests = json.load(file)
    our_port, their_port = free_port(), free_port()
    our_log, their_log = os.path.join(logs, f"{name}.stubserver.log"), os.path.join(logs, f"{name}.wiremock.log")
    processes = []
    try:
        with open(our_log, "w") as log:
            processes.append(subprocess.Popen(
                [binary, "--stubs", root, "--port", str(our_port), "--log-unmatched", "none"],
                stdout=log, stderr=subprocess.STDOUT))
        with open(their_log, "w") as log:
            processes.append(subprocess.Popen(
                ["java", "-jar", jar, "--port", str(their_port), "--bind-address", "127.0.0.1", "--root-dir", root,
                 "--local-response-templating", "--disable-banner"],
                stdout=log, stderr=subprocess.STDOUT))
        wait_until_serving(our_port, processes[0], "stubserver", our_log)
        wait_until_serving(their_port, processes[1], "WireMock", their_log)
        differences = []
        for index, request in enumerate(requests, start=1):
            differences += compare(name, index, request, send(our_port, request), send(their_port, request))
        return len(requests), differences
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    binary, jar, collections = sys.argv[1:]
    logs = tempfile.mkdtemp(prefix="wiremock-compat-")
    total, differences = 0, []
    for entry in sorted(os.listdir(collections)):
        root = os.path.join(collections, entry)
        if not os.path.isfile(os.path.join(root, "requests.json")):
            continue
        count, found = run_collection(os.path.abspath(binary), os.path.abspath(jar), os.path.abspath(root), logs)
        print(f"{entry}: {count} requests, {len(found)} difference(s)")
        total += count
        differences += found
    for line in differences:
        print(f"DIFFERENT: {line}")
    if differences:
        print(f"FAIL: {len(differences)} difference(s) from WireMock 2.35.1 in {total} requests (logs: {logs})")
        sys.exit(1)
    print(f"ok: {total} requests answered as WireMock 2.35.1 answers them")


if __name__ == "__main__":
    main()
