// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    import XCTest

    /// The `stubserver` binary serves scenarios, `metadata.stubserver` sequences, faults and delays from
    /// stub files, with `--global-delay` and `--bandwidth` from the command line.
    final class DynamicStubsEndToEndTests: XCTestCase {
        private func fetch(_ method: String, _ url: URL) async throws -> Fetched {
            try await LoopbackClient.send(method, url)
        }

        func testScenariosSequencesFaultsAndGlobalDelayFromFiles() async throws {
            let temp = try TemporaryStubs()
            try temp.write(
                "mappings/login.json",
                #"""
                {"mappings": [
                  {"scenarioName": "Login", "requiredScenarioState": "Started", "newScenarioState": "In",
                   "request": {"method": "POST", "url": "/login"}, "response": {"status": 204}},
                  {"scenarioName": "Login", "requiredScenarioState": "In",
                   "request": {"method": "GET", "url": "/me"}, "response": {"status": 200, "body": "jane"}}
                ]}
                """#)
            try temp.write(
                "mappings/flaky.json",
                #"""
                {"request": {"url": "/flaky"}, "response": {"status": 503},
                 "metadata": {"stubserver": {"then": [{"status": 200, "body": "ok"}]}}}
                """#)
            try temp.write(
                "mappings/reset.json",
                #"{"request": {"url": "/reset"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}}"#)
            let server = try StubServerProcess.launch(
                ["--stubs", "stubs", "--port", "0", "--global-delay", "300", "--bandwidth", "1000000"],
                currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            let baseURL = server.baseURL
            XCTAssertFalse(server.standardError.contains("not supported"), server.standardError)
            let me = try await fetch("GET", baseURL.appendingPathComponent("me"))
            XCTAssertEqual(me.status, 404)

            let started = Date()
            let r1 = try await fetch("POST", baseURL.appendingPathComponent("login"))
            // --global-delay delays stub responses: a lower bound only.
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3)
            XCTAssertEqual(r1.status, 204, r1.text)
            let r2 = try await fetch("GET", baseURL.appendingPathComponent("me"))
            XCTAssertEqual(r2.text, "jane", r2.text)
            let scenarios = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("__admin/scenarios"))
            XCTAssertTrue(
                scenarios.text.contains(#""state" : "In""#) || scenarios.text.contains(#""state": "In""#),
                scenarios.text)

            let r3 = try await fetch("GET", baseURL.appendingPathComponent("flaky"))
            XCTAssertEqual(r3.status, 503, r3.text)
            let r4 = try await fetch("GET", baseURL.appendingPathComponent("flaky"))
            XCTAssertEqual(r4.text, "ok", r4.text)

            if Curl.isAvailable {
                XCTAssertThrowsError(try Curl.send([], baseURL.appendingPathComponent("reset"))) { error in
                    XCTAssertTrue("\(error)".contains("status 56"), "\(error)")
                }
            }
            let r5 = try await fetch("POST", baseURL.appendingPathComponent("__admin/reset"))
            XCTAssertEqual(r5.status, 200, r5.text)
            let r6 = try await fetch("GET", baseURL.appendingPathComponent("me"))
            XCTAssertEqual(r6.status, 404, r6.text)
            let r7 = try await fetch("GET", baseURL.appendingPathComponent("flaky"))
            XCTAssertEqual(r7.status, 503, r7.text)
        }

        /// `--network edge` (400 ms latency, 30,000 B/s) is real on the wire: a 60,000-byte body file's first byte
        /// comes after the latency and the whole body takes about two seconds. Lower bounds only: a loaded machine
        /// can only make either later.
        func testNetworkEdgeDelaysTheFirstByteAndCapsTheRateOnTheWire() throws {
            let temp = try TemporaryStubs()
            try temp.write("__files/big.txt", String(repeating: "0123456789", count: 6_000))
            try temp.write(
                "mappings/big.json",
                #"{"request": {"url": "/big"}, "response": {"status": 200, "bodyFileName": "big.txt"}}"#)
            let server = try StubServerProcess.launch(
                ["--stubs", "stubs", "--port", "0", "--network", "edge"], currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            let port = try XCTUnwrap(server.baseURL.port)

            let client = try TimedClient(port: port)
            try client.sendGet("/big")
            let received = client.readToEnd()
            XCTAssertTrue(received.head.hasPrefix("HTTP/1.1 200"), received.head)
            XCTAssertEqual(received.body.count, 60_000)
            let firstByte = try XCTUnwrap(received.arrivals.first?.seconds)
            let lastByte = try XCTUnwrap(received.arrivals.last?.seconds)
            XCTAssertGreaterThanOrEqual(firstByte, 0.4, "first byte after \(firstByte) s; edge's latency is 400 ms")
            // 60,000 bytes at 30,000 B/s: 2 s after the first byte, less one pacing step at the start.
            XCTAssertGreaterThanOrEqual(
                lastByte - firstByte, 1.5, "the body took \(lastByte - firstByte) s: over 30,000 B/s")
        }
    }
#endif
