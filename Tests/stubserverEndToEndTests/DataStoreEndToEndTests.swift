// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import XCTest

    /// The data store through the real binary: a collection declared under `stubs/collections/`, its REST
    /// endpoints and errors seen by curl, `--data-dir` across a SIGTERM and across SIGKILLs in the middle of
    /// writes, a saved file that does not fit its declaration, and `maxItems`. The in-process suites cover the
    /// details; this is the black-box pass.
    final class DataStoreEndToEndTests: XCTestCase {
        /// `todos` at /api/todos, one seed item, a schema requiring a string `title`.
        private static func todos(extra: String = "") -> String {
            """
            {"name": "todos", "basePath": "/api/todos", "ids": "integer",
             "seed": [{"id": 1, "title": "Buy milk", "done": false}],
             "schema": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}\(extra)}
            """
        }

        private func stubs(_ declaration: String = todos()) throws -> TemporaryStubs {
            let stubs = try TemporaryStubs()
            try stubs.write("collections/todos.json", declaration)
            return stubs
        }

        private func launch(_ stubs: TemporaryStubs, dataDirectory: URL? = nil) throws -> StubServerProcess {
            try StubServerProcess.launch(
                ["--stubs", "stubs"] + (dataDirectory.map { ["--data-dir", $0.path] } ?? []),
                currentDirectory: stubs.root)
        }

        /// `curl -X method` with a JSON body when there is one.
        private func curl(_ method: String, _ url: URL, _ body: String? = nil) throws -> Fetched {
            var arguments = ["-X", method]
            if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
            return try Curl.send(arguments, url)
        }

        private func json(_ fetched: Fetched) throws -> Any {
            try JSONSerialization.jsonObject(with: fetched.body, options: [.fragmentsAllowed])
        }

        /// The items of a saved file, or `nil` when it is missing or not a JSON array of objects.
        private static func savedItems(_ file: URL) -> [[String: Any]]? {
            guard let data = try? Data(contentsOf: file),
                let array = try? JSONSerialization.jsonObject(with: data) as? [Any]
            else { return nil }
            let objects = array.compactMap { $0 as? [String: Any] }
            return objects.count == array.count ? objects : nil
        }

        /// The number of items `GET /api/todos` counts (`X-Total-Count`).
        private func total(_ server: StubServerProcess) throws -> Int? {
            let fetched = try curl("GET", server.baseURL.appendingPathComponent("api/todos"))
            return fetched.header("X-Total-Count").flatMap(Int.init)
        }

        private func assertProblem(
            _ fetched: Fetched, _ status: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line
        ) {
            XCTAssertEqual(fetched.status, status, "\(what): \(fetched.text)", file: file, line: line)
            XCTAssertEqual(
                fetched.header("Content-Type"), "application/problem+json", what, file: file, line: line)
            let problem = try? JSONSerialization.jsonObject(with: fetched.body) as? [String: Any]
            XCTAssertEqual(problem?["status"] as? Int, status, "\(what): \(fetched.text)", file: file, line: line)
        }

        func testEveryEndpointAndErrorStatusThroughCurl() throws {
            try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
            let stubs = try stubs()
            let server = try launch(stubs)
            defer { _ = server.stop() }
            let base = server.baseURL.appendingPathComponent("api/todos")

            let list = try curl("GET", base)
            XCTAssertEqual(list.status, 200, list.text)
            XCTAssertEqual(list.header("X-Total-Count"), "1")
            XCTAssertEqual((try json(list) as? [[String: Any]])?.first?["title"] as? String, "Buy milk")

            let one = try curl("GET", base.appendingPathComponent("1"))
            XCTAssertEqual(one.status, 200, one.text)
            XCTAssertEqual((try json(one) as? [String: Any])?["title"] as? String, "Buy milk")

            let posted = try curl("POST", base, #"{"title": "Walk the dog", "done": false}"#)
            XCTAssertEqual(posted.status, 201, posted.text)
            XCTAssertEqual(posted.header("Location"), "/api/todos/2")
            XCTAssertEqual((try json(posted) as? [String: Any])?["id"] as? Int, 2)

            let put = try curl("PUT", base.appendingPathComponent("2"), #"{"id": 2, "title": "Walk the cat"}"#)
            XCTAssertEqual(put.status, 200, put.text)
            XCTAssertEqual((try json(put) as? [String: Any])?["title"] as? String, "Walk the cat")

            let patched = try curl("PATCH", base.appendingPathComponent("2"), #"{"done": true}"#)
            XCTAssertEqual(patched.status, 200, patched.text)
            let patchedItem = try json(patched) as? [String: Any]
            XCTAssertEqual(patchedItem?["done"] as? Bool, true)
            XCTAssertEqual(patchedItem?["title"] as? String, "Walk the cat")

            let deleted = try curl("DELETE", base.appendingPathComponent("2"))
            XCTAssertEqual(deleted.status, 204, deleted.text)
            XCTAssertTrue(deleted.body.isEmpty)
            XCTAssertEqual(try curl("GET", base).header("X-Total-Count"), "1")

            assertProblem(try curl("POST", base, "not json"), 400, "a body that is not JSON")
            assertProblem(try curl("GET", base.appendingPathComponent("2")), 404, "the deleted item")
            assertProblem(try curl("POST", base, #"{"id": 1, "title": "Again"}"#), 409, "a second item with id 1")
            let unfit = try curl("POST", base, #"{"done": true}"#)
            assertProblem(unfit, 422, "an item without the title the schema requires")
            XCTAssertTrue(unfit.text.contains("title"), unfit.text)
            let wrongMethod = try curl("DELETE", base)
            assertProblem(wrongMethod, 405, "DELETE on the collection")
            XCTAssertEqual(wrongMethod.header("Allow"), "GET, HEAD, POST")
            XCTAssertEqual(try curl("GET", base).header("X-Total-Count"), "1", "refused requests change nothing")
            XCTAssertEqual(server.stop(), .exited(0), server.standardError)
        }

        func testDataDirectoryKeepsItemsAcrossSIGTERMAndRestart() throws {
            try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
            let stubs = try stubs()
            let data = stubs.root.appendingPathComponent("data", isDirectory: true)
            let saved = data.appendingPathComponent("todos.json")
            let first = try launch(stubs, dataDirectory: data)
            defer { _ = first.stop() }
            let base = first.baseURL.appendingPathComponent("api/todos")
            for title in ["one", "two", "three"] {
                XCTAssertEqual(try curl("POST", base, #"{"title": "\#(title)"}"#).status, 201)
            }
            // At once: the writes coalesced for later are flushed at SIGTERM.
            first.signal(SIGTERM)
            XCTAssertEqual(first.waitForExit(timeout: .seconds(30)), .exited(0), first.standardError)

            let items = try XCTUnwrap(Self.savedItems(saved), "\(saved.path) is a JSON array of objects")
            XCTAssertEqual(items.map { $0["title"] as? String }, ["Buy milk", "one", "two", "three"])
            XCTAssertEqual(items.map { $0["id"] as? Int }, [1, 2, 3, 4])

            let second = try launch(stubs, dataDirectory: data)
            defer { _ = second.stop() }
            let listed = try curl("GET", second.baseURL.appendingPathComponent("api/todos"))
            XCTAssertEqual(
                (try json(listed) as? [[String: Any]])?.map { $0["title"] as? String },
                ["Buy milk", "one", "two", "three"])
            // The ids go on after the saved ones.
            let next = try curl("POST", second.baseURL.appendingPathComponent("api/todos"), #"{"title": "four"}"#)
            XCTAssertEqual(next.header("Location"), "/api/todos/5", next.text)
            XCTAssertEqual(second.stop(), .exited(0), second.standardError)
        }

        /// Posts ~10 KB items on two keep-alive connections, each deleting its oldest beyond 100 so the file stays
        /// a few MB, until the server goes away (or a minute passes); then exits 0.
        private static let writeLoop = """
            import http.client, json, sys, threading, time
            port, worker_count = int(sys.argv[1]), 2
            padding = "x" * 10000
            deadline = time.monotonic() + 60
            def work(worker):
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                mine = []
                n = 0
                try:
                    while time.monotonic() < deadline:
                        n += 1
                        c.request("POST", "/api/todos", json.dumps({"title": f"w{worker}-{n}", "pad": padding}),
                                  {"Content-Type": "application/json"})
                        r = c.getresponse(); body = r.read()
                        if r.status == 201:
                            mine.append(json.loads(body)["id"])
                        if len(mine) > 100:
                            c.request("DELETE", f"/api/todos/{mine.pop(0)}")
                            c.getresponse().read()
                except Exception:
                    pass
            threads = [threading.Thread(target=work, args=(w,)) for w in range(worker_count)]
            for t in threads: t.start()
            for t in threads: t.join()
            """

        /// The file's inode number: a new one each time the server renames a new file over it.
        private static func inode(_ file: URL) -> UInt64? {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
            return (attributes?[.systemFileNumber] as? NSNumber)?.uint64Value
        }

        func testSIGKILLDuringWritesLeavesAWholeFileTheNextStartLoads() throws {
            try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
            try XCTSkipUnless(ChildProcess.isInstalled("python3"), "python3 is not installed")
            let stubs = try stubs(Self.todos(extra: #", "maxBytes": 67108864"#))
            let data = stubs.root.appendingPathComponent("data", isDirectory: true)
            let saved = data.appendingPathComponent("todos.json")

            // A first state, on disk before the first kill.
            let server = try launch(stubs, dataDirectory: data)
            XCTAssertEqual(
                try curl("POST", server.baseURL.appendingPathComponent("api/todos"), #"{"title": "first"}"#).status, 201
            )
            XCTAssertTrue(
                eventuallyBlocking { Self.savedItems(saved)?.count == 2 },
                "the first state was written to \(saved.path)")
            var current = server
            defer { _ = current.stop() }

            for round in 1...5 {
                let port = try XCTUnwrap(current.baseURL.port)
                let loop = Process()
                loop.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                loop.arguments = ["python3", "-c", Self.writeLoop, String(port)]
                loop.standardInput = FileHandle.nullDevice
                loop.standardOutput = FileHandle.nullDevice
                try loop.run()
                defer { if loop.isRunning { kill(loop.processIdentifier, SIGKILL) } }
                // Writes in flight: the file replaced three times since the loop began (the first may be the start's).
                var seen = Self.inode(saved)
                var replacements = 0
                XCTAssertTrue(
                    eventuallyBlocking(timeout: .seconds(60)) {
                        let now = Self.inode(saved)
                        if now != seen { replacements += 1 }
                        seen = now
                        return replacements >= 3
                    }, "round \(round): the write loop changed \(saved.path)")
                current.signal(SIGKILL)
                XCTAssertEqual(current.waitForExit(timeout: .seconds(30)), .signalled(SIGKILL))
                XCTAssertTrue(eventuallyBlocking(timeout: .seconds(30)) { !loop.isRunning }, "the write loop ended")

                let items = Self.savedItems(saved)
                XCTAssertNotNil(items, "round \(round): \(saved.path) is a whole JSON array of objects")
                // At most the one temporary file of the collection, which the next write reuses.
                let files = Set((try? FileManager.default.contentsOfDirectory(atPath: data.path)) ?? [])
                XCTAssertTrue(files.isSubset(of: ["todos.json", ".todos.json.tmp"]), "round \(round): \(files)")

                current = try launch(stubs, dataDirectory: data)
                XCTAssertEqual(
                    try total(current), items?.count,
                    "round \(round): the restarted server holds the saved file's items")
            }
            XCTAssertEqual(current.stop(), .exited(0), current.standardError)
        }

        func testASavedFileThatDoesNotFitTheDeclarationStopsTheStart() throws {
            let stubs = try stubs()
            let data = stubs.root.appendingPathComponent("data", isDirectory: true)
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            let saved = data.appendingPathComponent("todos.json")
            for (contents, what) in [
                (#"[{"id": 1, "done": true}]"#, "an item without the title the schema requires"),
                (#"[{"id": 1, "title": "a"}, {"id": 1, "title": "b"}]"#, "two items with id 1"),
                (#"[{"id": 1, "title": "cut off""#, "JSON cut off"),
                (#"{"id": 1, "title": "a"}"#, "an object, not an array")
            ] {
                try Data(contents.utf8).write(to: saved)
                let outcome = try StubServerProcess.run(
                    ["--stubs", "stubs", "--port", "0", "--data-dir", data.path], currentDirectory: stubs.root)
                guard case .exited(let status) = outcome.termination, status != 0 else {
                    XCTFail("\(what): expected a non-zero exit, got \(outcome.termination): \(outcome.stderr)")
                    continue
                }
                XCTAssertTrue(outcome.stderr.contains(saved.path), "\(what): stderr names the file: \(outcome.stderr)")
                XCTAssertFalse(outcome.stdout.contains("Listening on"), "\(what): \(outcome.stdout)")
            }
        }

        func testTheFourthPostPastMaxItems3Gets507() throws {
            try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
            let stubs = try stubs(
                #"{"name": "todos", "basePath": "/api/todos", "maxItems": 3}"#)
            let server = try launch(stubs)
            defer { _ = server.stop() }
            let base = server.baseURL.appendingPathComponent("api/todos")
            for number in 1...3 {
                XCTAssertEqual(try curl("POST", base, #"{"title": "\#(number)"}"#).status, 201)
            }
            let full = try curl("POST", base, #"{"title": "4"}"#)
            assertProblem(full, 507, "the fourth item")
            let listed = try curl("GET", base)
            XCTAssertEqual(listed.status, 200)
            XCTAssertEqual((try json(listed) as? [[String: Any]])?.map { $0["title"] as? String }, ["1", "2", "3"])
            XCTAssertEqual(server.stop(), .exited(0), server.standardError)
        }
    }
#endif
