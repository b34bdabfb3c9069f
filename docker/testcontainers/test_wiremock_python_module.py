"""WireMock's own Testcontainers module for Python against the stubserver image.

The module is `wiremock.testing.testcontainer` from the PyPI package `wiremock` (2.7.0), on top of the PyPI package
`testcontainers`. These tests run its own flows: start (its wait on `GET /__admin/mappings`), `with_mapping` and
`with_file` (files copied into `/home/wiremock/mappings/` and `/home/wiremock/__files/` after start, then
`POST /__admin/mappings/reset`), the `wiremock_container` context manager, and the package's admin client.

What differs from the module's flow, and why. The Docker engine of this CI has host networking only (no bridge, so
no published ports), and no registry:
  1. The container joins the host's network (`network_mode="host"`), and the module's two lookups of the published
     port follow: `get_container_host_ip()` is 127.0.0.1 and `get_exposed_port(port)` is `port`.
  2. `http_server_port` is a free port (on the host's network 8080 may be taken) and `secure=False`: the default image
     is the Slim build, which has no HTTPS (`--https-port`, the module's default, exits 4 there naming OpenSSL).
  3. Ryuk, Testcontainers' reaper container, is off (TESTCONTAINERS_RYUK_DISABLED): its image cannot be pulled
     here. Each test stops its own container.
Everything else is the module's code, unchanged.

    STUBSERVER_IMAGE=stubserver:local DOCKER_HOST=unix:///… python3 -m unittest -v test_wiremock_python_module
"""

import contextlib
import os
import socket
import unittest

import docker
import requests

os.environ.setdefault("TESTCONTAINERS_RYUK_DISABLED", "true")

from wiremock.constants import Config  # noqa: E402
from wiremock.resources.mappings import HttpMethods, Mapping, MappingRequest, MappingResponse  # noqa: E402
from wiremock.resources.mappings.resource import Mappings  # noqa: E402
from wiremock.resources.requests.resource import Requests  # noqa: E402
from wiremock.testing import testcontainer  # noqa: E402

IMAGE = os.environ.get("STUBSERVER_IMAGE", "stubserver:local")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def host_network():
    """Change 1: while open, every WireMockContainer the module makes joins the host's network, publishes no port (a
    host-network container cannot), and its ports are the host's. The module's flow is otherwise untouched."""
    cls = testcontainer.WireMockContainer
    saved = cls.initialize, cls.get_container_host_ip, cls.get_exposed_port

    def initialize(self):
        saved[0](self)
        self.ports.clear()
        self.with_kwargs(network_mode="host")

    cls.initialize = initialize
    cls.get_container_host_ip = lambda self: "127.0.0.1"
    cls.get_exposed_port = lambda self, port: int(port)
    try:
        yield
    finally:
        cls.initialize, cls.get_container_host_ip, cls.get_exposed_port = saved


def container() -> testcontainer.WireMockContainer:
    return testcontainer.WireMockContainer(image=IMAGE, http_server_port=free_port(), secure=False)


HELLO = {
    "request": {"method": "GET", "url": "/hello"},
    "response": {"status": 200, "body": "hello from a mapping copied in"},
}
WITH_BODY_FILE = {
    "request": {"method": "GET", "url": "/profile"},
    "response": {"status": 200, "bodyFileName": "profile.json", "headers": {"Content-Type": "application/json"}},
}


class WireMockPythonModuleTests(unittest.TestCase):
    def setUp(self):
        self.enterContext(host_network())

    def tearDown(self):
        # Each flow stopped what it started: no container of the image is left running.
        running = docker.from_env().containers.list(filters={"ancestor": IMAGE, "status": "running"})
        self.assertEqual([c.name for c in running], [])

    def test_with_mapping_and_with_file_are_served_after_start(self):
        wm = container().with_mapping("hello.json", HELLO).with_mapping("profile.json", WITH_BODY_FILE)
        wm.with_file("profile.json", {"login": "octocat", "id": 583231})
        with wm:  # the module's start(): the container, its wait, the files copied in, the reset
            hello = requests.get(wm.get_url("/hello"), timeout=10)
            self.assertEqual((hello.status_code, hello.text), (200, "hello from a mapping copied in"))
            profile = requests.get(wm.get_url("/profile"), timeout=10)
            self.assertEqual(profile.status_code, 200)
            self.assertEqual(profile.json(), {"login": "octocat", "id": 583231})
            # The module's own readiness check, and the command line it built (--port P) took effect.
            self.assertTrue(wm.server_running(retry_count=1))
            self.assertTrue(wm.get_base_url().endswith(f":{wm.http_server_port}"))

    def test_mappings_copied_later_are_served_after_reload_mappings(self):
        with container().with_mapping("hello.json", HELLO) as wm:
            self.assertEqual(requests.get(wm.get_url("/late"), timeout=10).status_code, 404)
            wm.mapping_stubs = {"late.json": '{"request": {"url": "/late"}, "response": {"body": "late"}}'}
            wm.copy_mappings_to_container()
            self.assertLessEqual(wm.reload_mappings().status_code, 300)
            self.assertEqual(requests.get(wm.get_url("/late"), timeout=10).text, "late")
            self.assertEqual(requests.get(wm.get_url("/hello"), timeout=10).status_code, 200)

    def test_the_wiremock_container_context_manager(self):
        with testcontainer.wiremock_container(
            image=IMAGE, http_server_port=free_port(), secure=False, mappings=[("hello.json", HELLO)]
        ) as wm:
            self.assertEqual(requests.get(wm.get_url("/hello"), timeout=10).status_code, 200)

    def test_the_admin_client_against_the_container(self):
        with container() as wm:
            Config.base_url = wm.get_url("__admin")
            created = Mappings.create_mapping(
                Mapping(
                    request=MappingRequest(method=HttpMethods.GET, url="/from-client"),
                    response=MappingResponse(status=200, body="made by the admin client"),
                    persistent=False,
                )
            )
            self.assertTrue(created.id)
            self.assertEqual(requests.get(wm.get_url("/from-client"), timeout=10).text, "made by the admin client")
            self.assertIn(created.id, [m.id for m in Mappings.retrieve_all_mappings().mappings])
            self.assertGreaterEqual(len(Requests.get_all_received_requests().requests), 1)
            Mappings.delete_all_mappings()
            self.assertEqual(requests.get(wm.get_url("/from-client"), timeout=10).status_code, 404)


if __name__ == "__main__":
    unittest.main(verbosity=2)
