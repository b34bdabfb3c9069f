import Foundation
import StubTestSupport
import XCTest

@testable import StubHTTP

/// A client that closes its connection while its response is pending (delayed, paced, or not answered
/// yet) no longer holds the server: the response is dropped at once, so `stop()` does not wait out the
/// grace period for it. Every bound below is generous (a third of the 600 s delay, so a loaded machine never
/// reaches it) and the expected figure is milliseconds; each test runs on every backend, Darwin emulation included.
final class ClientGoneTests: XCTestCase {
    static let backends: [SelectorBackend] = [.platformDefault, .poll, .darwinEmulation]
    static let delay: Duration = .seconds(600)

    /// Starts a server whose grace period outlasts the delay, runs `client` against it, then stops it and
    /// asserts the stop did not wait for the dropped response.
    private func assertStopIsNotHeld(
        _ label: String,
        handler: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void,
        client: (HTTPServer, SelectorBackend) throws -> Void,
        line: UInt = #line
    ) throws {
        for backend in Self.backends {
            var configuration = HTTPServerConfiguration(shutdownGracePeriod: Self.delay * 2)
            configuration.selectorBackend = backend
            let server = try startServer(configuration, handler: handler)
            try client(server, backend)
            let clock = ContinuousClock()
            let stopped = clock.measure { server.stop() }
            XCTAssertLessThan(
                stopped, Self.delay / 3, "\(label), \(backend): stop() waited for a client that left",
                line: line)
        }
    }

    func testAClientThatClosedBeforeItsDelayedResponseDoesNotHoldStop() throws {
        let received = DispatchSemaphore(value: 0)
        try assertStopIsNotHeld(
            "delayed",
            handler: { _, responder in
                responder.respond(.text("too late"), after: Self.delay)
                received.signal()
            },
            client: { server, _ in
                let client = try RawClient(port: server.port)
                try client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
                XCTAssertEqual(received.wait(timeout: .now() + 10), .success)
            })
    }

    func testAClientThatClosedBeforeAHandlerAnsweredDoesNotHoldStop() throws {
        let received = DispatchSemaphore(value: 0)
        let kept = LockedValue<[HTTPResponder]>([])
        try assertStopIsNotHeld(
            "unanswered",
            handler: { _, responder in
                kept.withLock { $0.append(responder) }  // a slow async handler: answers later, or never
                received.signal()
            },
            client: { server, _ in
                let client = try RawClient(port: server.port)
                try client.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
                XCTAssertEqual(received.wait(timeout: .now() + 10), .success)
            })
        // Answering after the client left is ignored.
        for responder in kept.withLock({ $0 }) { responder.respond(.text("nobody listens")) }
    }

    func testAClientThatLeftDuringAPacedResponseDoesNotHoldStop() throws {
        let body = String(repeating: "x", count: 300)
        try assertStopIsNotHeld(
            "paced",
            handler: { _, responder in
                responder.respond(PreparedResponse(.text(body)), pacing: .chunks(3, over: Self.delay * 1.5))
            },
            client: { server, backend in
                let client = try RawClient(port: server.port)
                try client.send("GET /paced HTTP/1.1\r\nHost: x\r\n\r\n")
                // The head and the first slice arrive; the rest is due 15 and 30 s later.
                var received: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 4096)
                while !String(decoding: received, as: UTF8.self).hasSuffix(String(repeating: "x", count: 100)) {
                    let count = read(client.fd, &chunk, chunk.count)
                    guard count > 0 else { return XCTFail("\(backend): no first slice") }
                    received += chunk[0..<count]
                }
            })
    }

    func testAClientThatClosedBeforeADelayedPacedResponseDoesNotHoldStop() throws {
        let received = DispatchSemaphore(value: 0)
        try assertStopIsNotHeld(
            "delayed then paced",
            handler: { _, responder in
                responder.respond(PreparedResponse(.text("abc")), pacing: .bytesPerSecond(10), after: Self.delay)
                received.signal()
            },
            client: { server, _ in
                let client = try RawClient(port: server.port)
                try client.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\n")
                XCTAssertEqual(received.wait(timeout: .now() + 10), .success)
            })
    }

    func testTheServerKeepsServingAfterDroppingAResponse() throws {
        for backend in Self.backends {
            var configuration = HTTPServerConfiguration()
            configuration.selectorBackend = backend
            let server = try startServer(configuration) { request, responder in
                if request.path == "/slow" {
                    responder.respond(.text("too late"), after: Self.delay)
                } else {
                    responder.respond(.text("fast"))
                }
            }
            defer { server.stop() }
            for _ in 0..<20 {
                let gone = try RawClient(port: server.port)
                try gone.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            XCTAssertEqual(
                try RawClient(port: server.port).roundTrip("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n").text,
                "fast", "\(backend)")
        }
    }
}
