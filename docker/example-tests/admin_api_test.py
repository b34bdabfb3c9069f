"""An example test service: drives stubserver through its admin API at STUBSERVER_URL, as a CI test job would.

Stubs a route, calls it, checks the journal counted the call, removes the stub. When STUBSERVER_ADMIN_TOKEN is set
(the server was started with that token), every admin call sends `Authorization: Bearer <token>`. Standard library
only. Exit 0 when every check passed, 1 (with the failed check) otherwise.
"""
import json
import os
import sys
import urllib.error
import urllib.request

BASE = os.environ.get("STUBSERVER_URL", "http://127.0.0.1:8080").rstrip("/")
TOKEN = os.environ.get("STUBSERVER_ADMIN_TOKEN", "")


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if TOKEN and path.startswith("/__admin/"):
        headers["Authorization"] = "Bearer " + TOKEN
    request = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def check(label, condition, detail=""):
    if not condition:
        print(f"FAIL: {label} {detail}")
        sys.exit(1)
    print(f"ok: {label}")


status, _ = call("GET", "/__admin/health")
check("GET /__admin/health is 200", status == 200, status)
status, body = call("POST", "/__admin/mappings", {
    "request": {"method": "GET", "url": "/example/greeting"},
    "response": {"status": 200, "jsonBody": {"greeting": "hello from the admin API"}},
})
check("POST /__admin/mappings creates a stub", status == 201, f"{status} {body}")
stub_id = json.loads(body)["id"]
status, body = call("GET", "/example/greeting")
check("the new stub answers", status == 200 and json.loads(body) == {"greeting": "hello from the admin API"}, f"{status} {body}")
status, body = call("POST", "/__admin/requests/count", {"method": "GET", "url": "/example/greeting"})
check("the journal counted the call", status == 200 and json.loads(body)["count"] == 1, f"{status} {body}")
status, _ = call("DELETE", f"/__admin/mappings/{stub_id}")
check("DELETE /__admin/mappings/ID removes it", status == 200, status)
status, _ = call("GET", "/example/greeting")
check("the removed stub no longer answers", status == 404, status)
print(f"example tests against {BASE} ({'with the admin token' if TOKEN else 'without an admin token'}): all checks passed")
