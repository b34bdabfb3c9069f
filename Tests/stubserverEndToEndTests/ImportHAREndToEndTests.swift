// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    import XCTest

    /// `stubserver import-har` as a user runs it, then `stubserver` serving what it wrote: the same
    /// answers as in the capture, over real sockets, with no secret in any written file.
    final class ImportHAREndToEndTests: XCTestCase {
        static let fixtures = Paths.repositoryRoot.appendingPathComponent("Tests/Fixtures/HAR")
        static let secret = "HARSECRET"

        func testChromeCaptureFilteredToOneHostServesTheSameAnswers() async throws {
            let temp = try TemporaryStubs()
            let har = Self.fixtures.appendingPathComponent("chrome-devtools.har").path
            let run = try StubServerProcess.run(
                ["import-har", har, "--stubs", "recorded", "--host", "api.github.com"],
                currentDirectory: temp.root)
            XCTAssertEqual(run.termination, .exited(0), run.stdout + run.stderr)
            XCTAssertEqual(run.stderr, "")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(
                Array(lines.dropFirst()),
                [
                    "left out 2 entries for other hosts: avatars.githubusercontent.com (1), www.google-analytics.com (1)",
                    "wrote 3 stubs to recorded (3 mappings, 3 body files); merged 1 duplicate request",
                    "  mappings/get-users-octocat.json  GET /users/octocat  (+1 duplicate)",
                    "  mappings/get-search-users.json  GET /search/users?q=octocat&per_page=2",
                    "  mappings/post-graphql.json  POST /graphql",
                    "left out as secrets:",
                    "  response header set-cookie (4 responses)",
                    "  query parameter access_token (1 request)",
                    "  (--keep-secret NAME records one of them; --keep-all-secrets records them all)",
                    "skipped 1 request:",
                    "  GET /favicon.ico: status 0 (the request got no response)"
                ], run.stdout)
            XCTAssertTrue(lines.first?.hasSuffix("(WebInspector 537.36); 5 for api.github.com") == true, run.stdout)
            let recorded = temp.root.appendingPathComponent("recorded")
            try assertNoSecret(in: recorded)

            let capture = try HARCapture.load(URL(fileURLWithPath: har))
            let served = capture.entries.filter { $0.host == "api.github.com" && $0.exchange.response.status != 0 }
            try await assertServes(recorded, served.map(\.exchange), jsonExact: false)
            try await withServer(recorded) { base in
                // The token is not needed to match, and any token matches; what was filtered out is not stubbed.
                let search = try await LoopbackClient.send(
                    "GET", try url(base, "/search/users?q=octocat&per_page=2&access_token=other"))
                XCTAssertEqual(search.status, 200)
                let avatar = try await LoopbackClient.send("GET", try url(base, "/u/583231?v=4"))
                XCTAssertEqual(avatar.status, 404)
                let favicon = try await LoopbackClient.send("GET", try url(base, "/favicon.ico"))
                XCTAssertEqual(favicon.status, 404)
            }
        }

        func testCharlesCaptureReplaysEveryBodyByteForByteWithJSONAsReceived() async throws {
            let temp = try TemporaryStubs()
            let har = Self.fixtures.appendingPathComponent("charles-proxy.har").path
            let run = try StubServerProcess.run(
                ["import-har", har, "--stubs", "recorded", "--json-as-received"],
                currentDirectory: temp.root)
            XCTAssertEqual(run.termination, .exited(0), run.stdout + run.stderr)
            XCTAssertTrue(run.stdout.contains("wrote 9 stubs to recorded (9 mappings, 8 body files)"), run.stdout)
            XCTAssertTrue(run.stdout.contains("  request body field client_secret (1 request)"), run.stdout)
            XCTAssertTrue(
                run.stdout.contains("note: the capture holds requests to 2 hosts (api.github.com, example.com)"),
                run.stdout)
            let recorded = temp.root.appendingPathComponent("recorded")
            try assertNoSecret(in: recorded)
            let capture = try HARCapture.load(URL(fileURLWithPath: har))
            try await assertServes(recorded, capture.entries.map(\.exchange), jsonExact: true)
        }

        func testImportingTwiceKeepsTheFirstFilesAndAddsNumberedOnes() throws {
            let temp = try TemporaryStubs()
            let har = Self.fixtures.appendingPathComponent("chrome-devtools.har").path
            let arguments = ["import-har", har, "--stubs", "stubs", "--host", "api.github.com"]
            XCTAssertEqual(try StubServerProcess.run(arguments, currentDirectory: temp.root).termination, .exited(0))
            let mapping = temp.stubs.appendingPathComponent("mappings/get-users-octocat.json")
            let first = try Data(contentsOf: mapping)
            let again = try StubServerProcess.run(arguments, currentDirectory: temp.root)
            XCTAssertEqual(again.termination, .exited(0), again.stderr)
            XCTAssertTrue(
                again.stdout.contains("  mappings/get-users-octocat-2.json  GET /users/octocat  (+1 duplicate)"),
                again.stdout)
            XCTAssertEqual(try Data(contentsOf: mapping), first)
            let check = try StubServerProcess.run(["check", "--stubs", "stubs"], currentDirectory: temp.root)
            // Both imports load; `check` points out that each second copy can never answer.
            XCTAssertTrue(check.stdout.hasSuffix("stubs: OK: 6 stubs, 0 errors, 3 warnings\n"), check.stdout)
        }

        func testABadCaptureExitsOneNamingTheEntryAndField() throws {
            let temp = try TemporaryStubs()
            try temp.write(
                "bad.har",
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://h/"}, "response": {"status": "200"}}]}}"#
            )
            let run = try StubServerProcess.run(
                ["import-har", "bad.har", "--stubs", "out"], currentDirectory: temp.stubs)
            XCTAssertEqual(run.termination, .exited(1))
            XCTAssertEqual(
                run.stderr, #"error: bad.har: log.entries[0].response.status: expected an integer, found "200""# + "\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: temp.stubs.appendingPathComponent("out").path))
            let missing = try StubServerProcess.run(["import-har", "nothing.har"], currentDirectory: temp.stubs)
            XCTAssertEqual(missing.termination, .exited(1))
            XCTAssertTrue(missing.stderr.hasPrefix("error: nothing.har: cannot read file: "), missing.stderr)
        }

        func testRecordSequencesAnswersRepeatsInTurnAndAMissingBodyIsReported() async throws {
            let temp = try TemporaryStubs()
            func entry(_ url: String, _ status: Int, _ content: String) -> String {
                #"{"request": {"method": "GET", "url": "http://127.0.0.1:9/\#(url)"}, "response": {"status": \#(status), "#
                    + #""headers": [{"name": "Content-Type", "value": "application/json"}], "content": \#(content)}}"#
            }
            let entries = [
                entry("jobs/1", 200, #"{"size": 18, "text": "{\"state\":\"queued\"}"}"#),
                entry("jobs/1", 200, #"{"size": 19, "text": "{\"state\":\"running\"}"}"#),
                entry("jobs/1", 200, #"{"size": 16, "text": "{\"state\":\"done\"}"}"#),
                entry("report", 200, #"{"size": 2048, "mimeType": "application/json"}"#)
            ]
            try temp.write(
                "session.har", #"{"log": {"version": "1.2", "entries": ["# + entries.joined(separator: ",") + "]}}")
            let run = try StubServerProcess.run(
                ["import-har", "session.har", "--stubs", "out", "--record-sequences"],
                currentDirectory: temp.stubs)
            XCTAssertEqual(run.termination, .exited(0), run.stdout + run.stderr)
            XCTAssertTrue(
                run.stdout.contains(#"  mappings/get-jobs-1-2.json  GET /jobs/1  (scenario "GET /jobs/1", state 2)"#),
                run.stdout)
            XCTAssertTrue(
                run.stdout.contains(
                    "warning: 1 response had a body the capture does not hold (exported without content?); "
                        + "their stubs answer with an empty body:\n  log.entries[3]: GET http://127.0.0.1:9/report"),
                run.stdout)
            try await withServer(temp.stubs.appendingPathComponent("out")) { base in
                var states: [String] = []
                for _ in 0..<4 {
                    let answer = try await LoopbackClient.send("GET", try url(base, "/jobs/1"))
                    states.append(String(describing: try JSONParser.parse([UInt8](answer.body))["state"] ?? .null))
                }
                XCTAssertEqual(states, [#""queued""#, #""running""#, #""done""#, #""done""#])
                let report = try await LoopbackClient.send("GET", try url(base, "/report"))
                XCTAssertEqual(report.status, 200)
                XCTAssertEqual(report.body.count, 0)
            }
        }

        // MARK: - Helpers

        /// Starts `stubserver` on `stubs` and sends every exchange's request: the status, the headers that
        /// were kept and the body (byte for byte, or as equal JSON when `jsonExact` is false) are the capture's.
        private func assertServes(
            _ stubs: URL, _ exchanges: [RecordedExchange], jsonExact: Bool,
            file: StaticString = #filePath, line: UInt = #line
        ) async throws {
            try await withServer(stubs) { base in
                for exchange in exchanges {
                    let (path, query) = Self.pathAndQuery(exchange.request.url)
                    let label = "\(exchange.request.method) \(path)\(query)"
                    let answer = try await LoopbackClient.send(
                        exchange.request.method, try url(base, path + query),
                        body: exchange.request.body.isEmpty ? nil : Data(exchange.request.body))
                    XCTAssertEqual(answer.status, exchange.response.status, label, file: file, line: line)
                    for field in exchange.response.headers where Self.replayed(field.name) {
                        XCTAssertEqual(
                            answer.header(field.name), field.value, "\(label): \(field.name)", file: file, line: line)
                    }
                    guard exchange.request.method != "HEAD" else { continue }
                    let isJSON = exchange.response.headers.first(name: "Content-Type")?.contains("json") == true
                    if isJSON, !jsonExact {
                        XCTAssertEqual(
                            try JSONParser.parse([UInt8](answer.body)), try JSONParser.parse(exchange.response.body),
                            label, file: file, line: line)
                        XCTAssertNotEqual(
                            [UInt8](answer.body), exchange.response.body, "\(label): pretty-printed", file: file,
                            line: line)
                    } else {
                        XCTAssertEqual([UInt8](answer.body), exchange.response.body, label, file: file, line: line)
                    }
                }
            }
        }

        private func withServer(_ stubs: URL, _ body: (URL) async throws -> Void) async throws {
            let server = try StubServerProcess.launch(["--stubs", stubs.path, "--port", "0"])
            defer { server.stop() }
            try await body(server.baseURL)
        }

        private func url(_ base: URL, _ pathAndQuery: String) throws -> URL {
            var text = base.absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            return try XCTUnwrap(URL(string: text + pathAndQuery))
        }

        /// Headers the writer leaves out: framing, Date, Content-Encoding, secrets.
        private static func replayed(_ name: String) -> Bool {
            ![
                "date", "content-length", "content-encoding", "transfer-encoding", "connection", "set-cookie",
                "x-api-key"
            ]
            .contains(name.lowercased())
        }

        /// `/a` and `?q=1` of `https://host/a?q=1`.
        private static func pathAndQuery(_ url: String) -> (String, String) {
            let components = URLComponents(string: url)
            let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
            let path = components?.percentEncodedPath ?? "/"
            return (path.isEmpty ? "/" : path, query)
        }

        private func assertNoSecret(in folder: URL, file: StaticString = #filePath, line: UInt = #line) throws {
            let enumerator = FileManager.default.enumerator(atPath: folder.path)
            var count = 0
            while let name = enumerator?.nextObject() as? String {
                let path = folder.appendingPathComponent(name).path
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
                else { continue }
                count += 1
                let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
                XCTAssertFalse(text.contains(Self.secret), "\(name) holds a secret", file: file, line: line)
                XCTAssertFalse(
                    text.lowercased().contains("set-cookie"), "\(name) holds Set-Cookie", file: file, line: line)
            }
            XCTAssertGreaterThan(count, 0, file: file, line: line)
        }
    }
#endif
