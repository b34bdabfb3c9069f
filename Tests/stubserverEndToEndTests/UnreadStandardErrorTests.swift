// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import XCTest

    /// A harness that pipes stderr and never reads it must not hang the server.
    final class UnreadStandardErrorTests: XCTestCase {
        /// 5,000 unmatched (each a near-miss report) and 5,000 matched requests with `--verbose`, stderr
        /// never read: all answered, and SIGTERM still stops the process with exit 0.
        func testServesEveryRequestAndStopsOnSIGTERMWhileStderrIsNeverRead() throws {
            let server = try PipedStubServer(["--stubs", Paths.demoStubs.path, "--port", "0", "--verbose"])
            let port = try server.waitForPort()

            // Two clients at once, as an app's traffic would be.
            let loops = [("/nope/{n}", 404), ("/hello", 200)]
            let answered = LockedResults()
            DispatchQueue.concurrentPerform(iterations: loops.count) { index in
                let (path, status) = loops[index]
                answered.set(index, Result { try pythonGetLoop(port: port, path: path, count: 5_000, status: status) })
            }
            XCTAssertEqual(try answered.get(0), 5_000)
            XCTAssertEqual(try answered.get(1), 5_000)

            server.signal(SIGTERM)
            // A stop with stderr blocked should take about 2 s; the bound here is generous for a shared, loaded machine.
            let exit = try XCTUnwrap(server.waitForExit(timeout: .seconds(30)), "still running 30 s after SIGTERM")
            print("stubserver exited \(exit.took) after SIGTERM with stderr blocked")
            XCTAssertEqual(exit.reason, .exit)
            XCTAssertEqual(exit.status, 0)
            XCTAssertLessThanOrEqual(exit.took, .seconds(10))
        }

        /// Lines dropped while stderr was full are counted, and the count is printed once stderr drains.
        func testReportsHowManyLinesWereDroppedOnceStderrDrains() throws {
            let server = try PipedStubServer(["--stubs", Paths.demoStubs.path, "--port", "0"])
            let port = try server.waitForPort()
            XCTAssertEqual(try pythonGetLoop(port: port, path: "/nope/{n}", count: 2_000, status: 404), 2_000)

            server.startReadingStandardError()
            XCTAssertTrue(
                eventuallyBlocking(timeout: .seconds(20)) { server.standardError.contains("not keeping up)") },
                String(server.standardError.suffix(2_000)))
            let notice = try XCTUnwrap(
                server.standardError.split(separator: "\n").first { $0.hasSuffix("(stderr not keeping up)") })
            XCTAssertNotNil(
                notice.range(
                    of: #"^stubserver: [0-9,]+ log lines dropped \(stderr not keeping up\)$"#,
                    options: .regularExpression), String(notice))
            // Once drained, logging works again.
            XCTAssertEqual(try pythonGetLoop(port: port, path: "/after-drain", count: 1, status: 404), 1)
            XCTAssertTrue(
                eventuallyBlocking {
                    server.standardError.contains("No stub matched GET /after-drain")
                })

            server.signal(SIGTERM)
            let exit = try XCTUnwrap(server.waitForExit(timeout: .seconds(30)))
            XCTAssertEqual(exit.status, 0)
        }
    }

    /// Results of concurrent client loops, by index.
    private final class LockedResults: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Int: Result<Int, any Error>] = [:]

        func set(_ index: Int, _ result: Result<Int, any Error>) { lock.withLock { results[index] = result } }

        func get(_ index: Int) throws -> Int {
            try lock.withLock { results[index] ?? .failure(TestFailure("no result")) }.get()
        }
    }
#endif
