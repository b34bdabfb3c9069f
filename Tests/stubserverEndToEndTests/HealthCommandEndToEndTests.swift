// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import XCTest
    import StubTestSupport

    /// `stubserver health URL` against a real server, a closed port and a peer that never answers.
    final class HealthCommandEndToEndTests: XCTestCase {
        func testHealthyServerExitsZeroAndTheProbeLeavesNoTrace() async throws {
            let server = try StubServerProcess.launch(["--stubs", Paths.demoStubs.path, "--port", "0", "--verbose"])
            addTeardownBlock { server.stop() }
            let baseURL = server.baseURL
            for url in [baseURL.absoluteString, baseURL.absoluteString + "/__admin/health"] {
                let run = try StubServerProcess.run(["health", url])
                XCTAssertEqual(run.termination, .exited(0), run.stderr)
                XCTAssertEqual(run.stdout, "healthy: \(baseURL.absoluteString)/__admin/health\n")
                XCTAssertEqual(run.stderr, "")
            }
            // Not journaled and not logged with --verbose: a probe every second leaves nothing behind.
            let journal = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("__admin/requests"))
            XCTAssertTrue(journal.text.contains(#""total": 0"#), journal.text)
            let hello = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("hello"))
            XCTAssertEqual(hello.status, 200)
            XCTAssertTrue(server.waitForStandardError(containing: "GET /hello"), server.standardError)
            XCTAssertFalse(server.standardError.contains("__admin/health"), server.standardError)

            // Another status is unhealthy, with the status line.
            let notFound = try StubServerProcess.run(["health", baseURL.absoluteString + "/not-here"])
            XCTAssertEqual(notFound.termination, .exited(1))
            XCTAssertEqual(
                notFound.stderr, "unhealthy: \(baseURL.absoluteString)/not-here/__admin/health: HTTP 404 Not Found\n")
        }

        func testRefusedConnectionExitsOne() throws {
            // Bound, not listening: refused, and no other test's server can take the port meanwhile.
            let (fd, port) = try RawSocket.occupyLoopbackPort(listening: false)
            defer { close(fd) }
            let run = try StubServerProcess.run(["health", "http://127.0.0.1:\(port)"])
            XCTAssertEqual(run.termination, .exited(1))
            XCTAssertEqual(run.stdout, "")
            XCTAssertEqual(
                run.stderr, "unhealthy: http://127.0.0.1:\(port)/__admin/health: connect: connection refused\n")
        }

        func testAPeerThatNeverAnswersTimesOut() throws {
            // Listening but never accepting: the connection completes in the backlog, no answer ever comes.
            let (fd, port) = try RawSocket.occupyLoopbackPort()
            defer { close(fd) }
            let started = ContinuousClock.now
            let run = try StubServerProcess.run(
                ["health", "http://127.0.0.1:\(port)", "--timeout", "0.3"], timeout: .seconds(30))
            XCTAssertEqual(run.termination, .exited(1))
            XCTAssertEqual(
                run.stderr, "unhealthy: http://127.0.0.1:\(port)/__admin/health: timed out waiting for the answer\n")
            // Generous bound (100x the timeout): the probe is bounded, not stuck.
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(30))
        }
    }
#endif
