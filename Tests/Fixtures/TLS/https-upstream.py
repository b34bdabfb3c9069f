"""An HTTPS upstream for stubserver's proxy tests, on 127.0.0.1 only.

usage: python3 https-upstream.py CERT KEY PORT_FILE LOG_FILE

Serves over TLS with CERT/KEY on a free port, which it writes to PORT_FILE once listening. Every
request is appended to LOG_FILE as one JSON line. GET /binary answers 1024 bytes 0..255 four times;
/gzip answers a gzip-encoded text; /redirect answers 302 to /elsewhere; /slow waits 1.5 s after reading
the request, then answers as anything else does: 200 with a JSON echo of the request (method, path,
X-Test header, body).
"""
import gzip
import http.server
import json
import os
import ssl
import sys
import time

cert, key, port_file, log_file = sys.argv[1:5]
BINARY = bytes(range(256)) * 4


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        seen = {"method": self.command, "path": self.path, "xTest": self.headers.get("X-Test"),
                "body": body.decode("utf-8", "replace")}
        with open(log_file, "a") as log:
            log.write(json.dumps(seen) + "\n")
        status, extra = 200, {}
        if self.path == "/binary":
            payload, kind = BINARY, "application/octet-stream"
        elif self.path == "/gzip":
            payload, kind = gzip.compress(b"inflated by the proxy " * 20), "text/plain"
            extra["Content-Encoding"] = "gzip"
        elif self.path == "/redirect":
            status, payload, kind = 302, b"", "text/plain"
            extra["Location"] = "/elsewhere"
        else:
            if self.path == "/slow":
                time.sleep(1.5)
            payload, kind = json.dumps(seen, sort_keys=True).encode(), "application/json"
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("X-Upstream", "https")
        for name, value in extra.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_PUT = do_DELETE = answer

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
# A client that rejects the certificate fails the handshake in accept(); that is an OSError the
# server ignores, and it keeps serving.
server.socket = context.wrap_socket(server.socket, server_side=True)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
