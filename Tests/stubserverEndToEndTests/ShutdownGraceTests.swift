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

    /// Against the binary: a delayed response whose client gave up does not hold SIGTERM,
    /// and `--shutdown-grace` bounds the wait for one whose client is still there. The bounds are generous
    /// (a third of the 30 s delay); the expected figures are milliseconds and the grace period.
    final class ShutdownGraceTests: XCTestCase {
        private static let delayed = """
            {"request": {"method": "GET", "urlPath": "/slow"},
             "response": {"status": 200, "body": "too late", "fixedDelayMilliseconds": 30000}}
            """

        private func startServer(grace: String) throws -> (StubServerProcess, URL, TemporaryStubs) {
            let stubs = try TemporaryStubs()
            try stubs.write("mappings/slow.json", Self.delayed)
            let server = try StubServerProcess.launch(
                ["--stubs", "stubs", "--port", "0", "--shutdown-grace", grace],
                currentDirectory: stubs.root)
            return (server, server.baseURL, stubs)
        }

        /// Runs curl with `--max-time seconds` and returns its exit status (28: timed out; 52: empty reply).
        private func curl(_ url: URL, maxTime: Int) throws -> Process {
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            curl.arguments = ["curl", "-sS", "-o", "/dev/null", "--max-time", "\(maxTime)", url.absoluteString]
            curl.standardInput = FileHandle.nullDevice
            curl.standardError = FileHandle.nullDevice
            try curl.run()
            return curl
        }

        /// Sends SIGTERM to `server`, waits up to 45 s for it to exit, prints how long that took and asserts that it
        /// exited with status 0 in under 10 s.
        /// - Parameters:
        ///   - situation: What the stop was up against, printed after "stubserver exited 1.2 s after SIGTERM ".
        ///   - tooLong: The failure message when the exit took 10 s or more.
        private func assertSIGTERMExitsWithin10Seconds(
            _ server: StubServerProcess, _ situation: String, otherwise tooLong: String,
            file: StaticString = #filePath, line: UInt = #line
        ) {
            let start = ContinuousClock.now
            server.signal(SIGTERM)
            let termination = server.waitForExit(timeout: .seconds(45))
            let took = ContinuousClock.now - start
            print("stubserver exited \(took) after SIGTERM \(situation)")
            XCTAssertEqual(termination, .exited(0), server.standardError, file: file, line: line)
            XCTAssertLessThan(took, .seconds(10), tooLong, file: file, line: line)
        }

        func testSIGTERMDoesNotWaitForADelayedResponseWhoseClientGaveUp() throws {
            try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
            let (server, baseURL, stubs) = try startServer(grace: "60")
            defer { _ = server.stop(); _ = stubs }
            let client = try curl(baseURL.appendingPathComponent("slow"), maxTime: 1)
            client.waitUntilExit()
            XCTAssertEqual(client.terminationStatus, 28, "curl timed out waiting for the 30 s delay")

            assertSIGTERMExitsWithin10Seconds(
                server, "(grace 60 s, the delayed response's client gone)",
                otherwise: "SIGTERM waited for a response nobody will read")
        }

        func testSIGTERMWaitsNoLongerThanTheShutdownGraceForAWaitingClient() throws {
            try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
            let (server, baseURL, stubs) = try startServer(grace: "0.5")
            defer { _ = server.stop(); _ = stubs }
            let client = try curl(baseURL.appendingPathComponent("slow"), maxTime: 60)
            defer { if client.isRunning { kill(client.processIdentifier, SIGKILL) } }
            // The request is in (journaled) before the stop.
            XCTAssertTrue(
                eventuallyBlocking {
                    (try? Curl.send([], baseURL.appendingPathComponent("__admin/requests")))?.text.contains("/slow")
                        ?? false
                })

            assertSIGTERMExitsWithin10Seconds(
                server, "with --shutdown-grace 0.5 and a client waiting",
                otherwise: "the stop waited for the 30 s delay, not the 0.5 s grace")
            client.waitUntilExit()
            XCTAssertEqual(
                client.terminationStatus, 52, "the waiting client's connection was closed without a response")
        }
    }
#endif
