import Foundation
import StubTestSupport
import XCTest

@testable import StubHTTP

/// Start, stop and resource tests over real loopback sockets.
final class ServerLifecycleTests: XCTestCase {
    func testStopLetsAnInFlightDelayedResponseFinish() throws {
        let handled = DispatchSemaphore(value: 0)
        let server = try startServer(.init(shutdownGracePeriod: .seconds(5))) { _, responder in
            responder.respond(.text("late"), after: .milliseconds(300))
            handled.signal()
        }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(handled.wait(timeout: .now() + 30), .success, "the request reached the handler")
        let idle = try RawClient(port: server.port)
        server.stop()
        let response = try client.readResponse()
        XCTAssertEqual(response.text, "late")
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(client.waitForClose())
        XCTAssertTrue(idle.waitForClose())
        XCTAssertThrowsError(try RawClient(port: server.port))
    }

    func testStopGivesUpAfterTheGracePeriod() throws {
        let handled = DispatchSemaphore(value: 0)
        let server = try startServer(.init(shutdownGracePeriod: .milliseconds(100))) { _, _ in
            handled.signal()  // and never answers
        }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(handled.wait(timeout: .now() + 30), .success, "the request reached the handler")
        server.stop()
        XCTAssertTrue(client.waitForClose())
    }

    func testStopIsIdempotentAndSafeFromManyThreads() throws {
        let handled = DispatchSemaphore(value: 0)
        let server = try startServer { _, responder in
            responder.respond(.text("x"), after: .milliseconds(100))
            handled.signal()
        }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(handled.wait(timeout: .now() + 30), .success, "the request reached the handler")
        DispatchQueue.concurrentPerform(iterations: 8) { _ in server.stop() }
        server.stop()
        XCTAssertEqual(try client.readResponse().text, "x")
    }

    func testStopFromAHandlerOnTheLoopThread() throws {
        let box = ServerBox()
        let server = try startServer { _, responder in
            responder.respond(.text("bye"))
            box.server?.stop()
        }
        box.server = server
        let client = try RawClient(port: server.port)
        XCTAssertEqual(try client.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n").text, "bye")
        server.stop()  // waits for the background stop
        XCTAssertThrowsError(try RawClient(port: server.port))
    }

    func testStartTwiceFails() throws {
        let server = try startServer()
        defer { server.stop() }
        XCTAssertThrowsError(try server.start()) { error in
            XCTAssertEqual((error as? ServerError)?.kind, .alreadyStarted)
        }
    }

    func testStartAndStopFiftyTimesLeaksNoDescriptors() throws {
        func cycle() throws {
            let server = try startServer(.init(eventLoopCount: 2))
            let client = try RawClient(port: server.port)
            _ = try client.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            server.stop()
        }
        try cycle()  // warm up lazily opened descriptors
        let before = openFileDescriptorCount()
        XCTAssertGreaterThan(before, 0, "/dev/fd lists this process's descriptors")
        for _ in 0..<50 { try cycle() }
        XCTAssertEqual(openFileDescriptorCount(), before)
    }
}

final class ServerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: HTTPServer?
    var server: HTTPServer? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
