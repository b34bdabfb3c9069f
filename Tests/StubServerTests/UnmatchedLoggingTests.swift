import Foundation
import StubHTTP
import StubKit
import StubServerTestSupport
import StubTesting
import XCTest

/// `Configuration.unmatchedRequestLogging` and the log sink an in-process server writes through.
final class UnmatchedLoggingTests: XCTestCase {
    /// A server logging into a closure; returns it and a way to read what it logged (after a flush).
    private func server(_ mode: UnmatchedRequestLogging) throws -> (StubServer, () -> [String]) {
        let lines = LockedValue<[String]>([])
        var configuration = StubServer.Configuration()
        configuration.unmatchedRequestLogging = mode
        configuration.log = LogSink(
            .handler { text in lines.withLock { $0 += text.split(separator: "\n").map(String.init) } })
        let server = try startStubServer(stubs: Demo.stubs(), configuration: configuration)
        return (
            server,
            {
                XCTAssertTrue(configuration.log.flush(timeout: .seconds(30)))
                return lines.withLock { $0 }
            }
        )
    }

    /// A `.file` body missing from `__files`: a warning naming the stub (its name, or its pattern and the place
    /// it was added) and the file, and a 500 saying the same.
    func testAMissingBodyFileIsAWarningNamingTheStub() async throws {
        let (server, logged) = try server(.full)
        server.stub(.get("/broken"), .file("users/missing.json"))
        server.stub(.get("/named"), .file("nope.json"), name: "profile photo")
        let broken = try await HTTP.get(server, "/broken")
        XCTAssertEqual(broken.status, 500)
        XCTAssertTrue(broken.text.hasPrefix("stubserver: GET /broken (UnmatchedLoggingTests.swift:"), broken.text)
        XCTAssertTrue(broken.text.contains("users/missing.json"), broken.text)

        let lines = logged().filter { $0.contains("missing.json") || $0.contains("nope.json") }
        XCTAssertEqual(lines.count, 2, lines.joined(separator: "\n"))
        XCTAssertTrue(lines[0].hasPrefix("stubserver: warning: GET /broken (UnmatchedLoggingTests.swift:"), lines[0])
        XCTAssertTrue(lines[0].hasSuffix("; it answers 500"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix(#"stubserver: warning: "profile photo": "#), lines[1])
    }

    func testFullReportsOncePerShapeThenOneLinePerRepeat() async throws {
        let (server, logged) = try server(.full)
        for _ in 0..<3 { _ = try await HTTP.get(server, "/feed") }
        _ = try await HTTP.get(server, "/other")

        let lines = logged()
        XCTAssertEqual(lines.filter { $0 == "No stub matched GET /feed" }.count, 1, lines.joined(separator: "\n"))
        XCTAssertEqual(
            lines.filter { $0.hasPrefix("stubserver: no stub matched GET /feed → 404 (") },
            [
                "stubserver: no stub matched GET /feed → 404 (2nd time in 60 s; near-miss report above)",
                "stubserver: no stub matched GET /feed → 404 (3rd time in 60 s; near-miss report above)"
            ])
        XCTAssertEqual(lines.filter { $0 == "No stub matched GET /other" }.count, 1, lines.joined(separator: "\n"))
        // The 404 body still carries the full report every time.
        let body = try await HTTP.get(server, "/feed").body
        XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("Closest stubs:"))
    }

    func testLineModeLogsOneLinePerRequest() async throws {
        let (server, logged) = try server(.line)
        for _ in 0..<2 { _ = try await HTTP.get(server, "/feed") }
        XCTAssertEqual(logged(), Array(repeating: "stubserver: no stub matched GET /feed → 404", count: 2))
    }

    func testNoneLogsNothingButTheJournalStillHasTheRequests() async throws {
        let (server, logged) = try server(.none)
        _ = try await HTTP.get(server, "/feed")
        XCTAssertEqual(logged(), [])
        XCTAssertEqual(server.unmatchedRequests.count, 1)
    }

    func testLogsUnmatchedRequestsMapsToTheModes() {
        var configuration = StubServer.Configuration()
        XCTAssertEqual(configuration.unmatchedRequestLogging, .full)
        configuration.logsUnmatchedRequests = false
        XCTAssertEqual(configuration.unmatchedRequestLogging, .none)
        configuration.logsUnmatchedRequests = true
        XCTAssertEqual(configuration.unmatchedRequestLogging, .full)
    }
}
