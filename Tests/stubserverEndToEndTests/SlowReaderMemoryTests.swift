// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport
    import XCTest

    /// What clients that ask for a large response and never read it cost. A body file
    /// over the cache limit is streamed from disk, never held whole (it cost 1 GB at start and ~135 MB more per
    /// reader; ten readers of a 100 MB body file held ten copies, 1.1 GB); a large render spills to a temporary
    /// file as it renders and is streamed from there the same way (ten 32 MiB renders held 457 MB before).
    final class SlowReaderMemoryTests: XCTestCase {
        /// Starts the binary with a 1 GiB body file (sparse) served as is (`/static`) and through a template (`/rendered`,
        /// 32 segments of 1 MiB), has 10 clients ask `path` and never read, and returns the server's RSS in kB
        /// while they wait.
        private func residentWhileTenClientsDoNotRead(_ path: String) throws -> Int {
            #if os(Linux)
                let temp = try TemporaryStubs()
                try temp.write("__files/big.bin", data: Data())
                let file = try FileHandle(forWritingTo: temp.stubs.appendingPathComponent("__files/big.bin"))
                try file.truncate(atOffset: 1 << 30)
                try file.close()
                try temp.write(
                    "__files/big.tmpl",
                    "{{#each request.pathSegments}}" + String(repeating: "x", count: 1 << 20) + "{{/each}}")
                try temp.write(
                    "mappings/static.json",
                    #"""
                    {"request": {"method": "GET", "urlPath": "/static"}, "response": {"status": 200, "bodyFileName": "big.bin"}}
                    """#)
                try temp.write(
                    "mappings/rendered.json",
                    #"""
                    {"request": {"method": "GET", "urlPathPattern": "/rendered/.*"},
                     "response": {"status": 200, "bodyFileName": "big.tmpl", "transformers": ["response-template"]}}
                    """#)
                let server = try StubServerProcess.launch(
                    ["--stubs", "stubs", "--port", "0", "--template-max-output", "40MiB"],
                    currentDirectory: temp.root)
                addTeardownBlock { server.stop() }
                let port = try XCTUnwrap(server.baseURL.port)
                // Ten connections with small receive buffers ask and never read. Once the journal has all ten, and the
                // server's ten sockets hold unread bytes that have not changed for five checks in a row (/proc/net/tcp:
                // the server has written all it will while they wait), the RSS.
                let script = """
                    import http.client, json, socket, sys, time
                    port, pid, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
                    sockets = []
                    for _ in range(10):
                        s = socket.socket()
                        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                        s.connect(("127.0.0.1", port))
                        s.sendall(("GET %s HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n" % path).encode())
                        sockets.append(s)
                    def send_queues():
                        queues = []
                        for line in open("/proc/net/tcp").readlines()[1:]:
                            fields = line.split()
                            if int(fields[1].split(":")[1], 16) == port and fields[3] == "01":
                                queues.append(int(fields[4].split(":")[0], 16))
                        return sorted(queues)
                    deadline = time.time() + 120
                    count, last, still = 0, None, 0
                    while time.time() < deadline and still < 5:
                        if count < 10:
                            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                            c.request("POST", "/__admin/requests/count", body='{"method": "GET", "urlPathPattern": "/(static|rendered).*"}')
                            count = json.loads(c.getresponse().read())["count"]
                            c.close()
                        else:
                            queues = send_queues()
                            full = len([q for q in queues if q > 0]) >= 10
                            still = still + 1 if full and queues == last else 0
                            last = queues
                        time.sleep(0.1)
                    rss = [l.split()[1] for l in open("/proc/%s/status" % pid) if l.startswith("VmRSS:")][0]
                    print(count if still >= 5 else "unsettled", rss)
                    for s in sockets:
                        s.close()
                    """
                let output = try ChildProcess.python(
                    script, [String(port), String(server.pid), path], timeout: .seconds(180))
                let fields = output.split(separator: " ")
                XCTAssertEqual(
                    fields.first, "10", "all ten requests journaled, their sockets filled and still: \(output)")
                let resident = try XCTUnwrap(Int(fields.last ?? ""), output)
                print("stubserver with 10 clients not reading \(path): RSS \(resident / 1024) MB")
                return resident
            #else
                throw XCTSkip("reads the process status file, which only Linux has")
            #endif
        }

        /// The 1 GiB file is never held: the server's own memory and at most 256 KiB queued per connection
        /// (one copy would be over 1,000 MB).
        func testTenClientsNotReadingABodyFileHoldNoCopyOfIt() throws {
            let resident = try residentWhileTenClientsDoNotRead("/static")
            XCTAssertLessThan(resident, 100 * 1024, "RSS \(resident) kB: is the 1 GiB body file read into memory?")
        }

        /// Ten renders of 32 MiB (under `--template-max-output 40MiB`) spill to files as they render: the server
        /// holds the template (1 MiB) and at most 256 KiB queued per connection, not the renders (one would be 32 MiB,
        /// ten 320 MiB: 457 MB was measured when they were held).
        func testTenClientsNotReadingARenderedBodyHoldNoCopyOfIt() throws {
            let resident = try residentWhileTenClientsDoNotRead("/rendered" + String(repeating: "/s", count: 31))
            XCTAssertLessThan(resident, 100 * 1024, "RSS \(resident) kB: is a rendered body held in memory?")
        }
    }
#endif
