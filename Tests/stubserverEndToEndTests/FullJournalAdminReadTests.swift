// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport
    import XCTest

    /// A full-journal `GET /__admin/requests` is built off the event loop, delivered whole
    /// (the bytes announced are the bytes that arrive), and stub traffic is answered while its reader stalls.
    final class FullJournalAdminReadTests: XCTestCase {
        /// The journal is filled with 10 KB POSTs (10,000 against a given release binary, 1,500 against the debug
        /// build); a client asks for all of them and stops reading after 64 KB. Meanwhile 50 `/hello` requests on
        /// new connections are all answered; then the admin client reads the rest: exactly `Content-Length`
        /// bytes, JSON with one serve event per POST. The head comes once the whole journal is serialized (15 MB in
        /// the debug build), which took over 60 s in a run with both cores busy: the admin client waits up to 300 s.
        func testHelloIsAnsweredWhileAFullJournalReadStallsAndTheJournalArrivesWhole() throws {
            let temp = try TemporaryStubs()
            try temp.write(
                "mappings/hello.json",
                #"{"request": {"method": "GET", "url": "/hello"}, "response": {"status": 200, "body": "hi"}}"#)
            try temp.write(
                "mappings/fill.json", #"{"request": {"method": "POST", "url": "/fill"}, "response": {"status": 201}}"#)
            // 128 MiB: room for all 10,000 (the default 64 MiB would let the oldest go).
            let server = try StubServerProcess.launch(
                ["--stubs", "stubs", "--journal-max-bytes", "128MiB"],
                currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            let port = try XCTUnwrap(server.baseURL.port)
            let posts = ProcessInfo.processInfo.environment["STUBSERVER_E2E_BINARY"] == nil ? 1_500 : 10_000

            let script = """
                import http.client, json, socket, sys, time
                port, posts = int(sys.argv[1]), int(sys.argv[2])
                body = b"x" * 10240
                deadline = time.time() + 180
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                for n in range(posts):
                    if time.time() > deadline:
                        print("out of time after %d posts" % n); sys.exit(1)
                    c.request("POST", "/fill", body=body); r = c.getresponse(); r.read()
                    if r.status != 201: print("post %d: %d" % (n, r.status)); sys.exit(1)
                c.close()

                admin = socket.create_connection(("127.0.0.1", port), timeout=300)
                admin.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
                admin.sendall(b"GET /__admin/requests HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n")
                head = b""
                while b"\\r\\n\\r\\n" not in head:
                    part = admin.recv(65536)
                    if not part: print("admin closed before the head"); sys.exit(1)
                    head += part
                head, rest = head.split(b"\\r\\n\\r\\n", 1)
                length = [int(l.split(b":")[1]) for l in head.split(b"\\r\\n") if l.lower().startswith(b"content-length:")][0]

                # The admin client reads nothing more for now: its response waits in the server.
                for n in range(50):
                    h = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    h.request("GET", "/hello"); r = h.getresponse()
                    if r.status != 200 or r.read() != b"hi": print("hello %d: %d" % (n, r.status)); sys.exit(1)
                    h.close()

                received = bytearray(rest)
                while len(received) < length:
                    part = admin.recv(1 << 20)
                    if not part: break
                    received += part
                events = json.loads(bytes(received[:length]))["requests"]
                print(length == len(received), len(events), sum(e["request"]["url"] == "/fill" for e in events))
                """
            let outcome = try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, String(port), String(posts)],
                timeout: .seconds(600))
            let output = outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertTrue(outcome.succeeded, "\(output)\n\(outcome.standardError)")
            XCTAssertEqual(
                output, "True \(posts) \(posts)", "Content-Length delivered exactly, one serve event per POST")
        }
    }
#endif
