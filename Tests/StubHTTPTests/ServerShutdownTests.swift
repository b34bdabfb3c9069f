import Foundation
import StubTestSupport
import XCTest

@testable import StubHTTP

/// `shutdown() async`: the same stop as `stop()`, without blocking the caller's thread.
final class ServerShutdownTests: XCTestCase {
    func testShutdownLetsAnInFlightDelayedResponseFinish() async throws {
        let handled = LockedValue(false)
        let server = try startServer(.init(shutdownGracePeriod: .seconds(5))) { _, responder in
            responder.respond(.text("late"), after: .milliseconds(300))
            handled.withLock { $0 = true }
        }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        try await waitUntil("the request reached the handler") { handled.withLock { $0 } }
        await server.shutdown()
        let response = try client.readResponse()
        XCTAssertEqual(response.text, "late")
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertThrowsError(try RawClient(port: server.port))
    }

    func testShutdownGivesUpAfterTheGracePeriod() async throws {
        let handled = LockedValue(false)
        let server = try startServer(.init(shutdownGracePeriod: .milliseconds(100))) { _, _ in
            handled.withLock { $0 = true }  // and never answers
        }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        try await waitUntil("the request reached the handler") { handled.withLock { $0 } }
        await server.shutdown()
        XCTAssertTrue(client.waitForClose())
    }

    /// While one stop waits out a grace period, every other caller, sync or async, returns with it.
    func testConcurrentShutdownsAndStopsAllReturnOnceStopped() async throws {
        let handled = LockedValue(false)
        let server = try startServer(.init(shutdownGracePeriod: .milliseconds(300))) { _, _ in
            handled.withLock { $0 = true }  // and never answers
        }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        try await waitUntil("the request reached the handler") { handled.withLock { $0 } }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { await server.shutdown() } }
            group.addTask {
                await withCheckedContinuation { continuation in
                    Thread {
                        server.stop(); continuation.resume()
                    }.start()
                }
            }
        }
        XCTAssertTrue(client.waitForClose())
        XCTAssertThrowsError(try RawClient(port: server.port))
        await server.shutdown()  // idempotent
    }

    func testShutdownOfAServerNeverStartedReturns() async {
        let server = HTTPServer { _, responder in responder.respond(.text("x")) }
        await server.shutdown()
        XCTAssertThrowsError(try server.start())
    }
}
