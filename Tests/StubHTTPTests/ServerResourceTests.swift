import Foundation
import StubTestSupport
import XCTest

@testable import StubHTTP

/// What a connection leaves behind on its event loop once it is closed, and how the close happens.
final class ServerResourceTests: XCTestCase {
    /// Weak references to the connections the handler saw, and their loops.
    final class Seen: @unchecked Sendable {
        private struct Weak { weak var connection: Connection? }
        private let lock = NSLock()
        private var connections: [Weak] = []
        private(set) var loop: EventLoop?

        func add(_ responder: HTTPResponder) {
            lock.withLock {
                connections.append(Weak(connection: responder.connection))
                loop = responder.connection.loop
            }
        }
        var count: Int { lock.withLock { connections.count } }
        /// The number of distinct connections still alive.
        var alive: Int {
            lock.withLock { Set(connections.compactMap { $0.connection.map(ObjectIdentifier.init) }).count }
        }
        var currentLoop: EventLoop? { lock.withLock { loop } }
        /// The connection of the latest request, if still alive.
        var last: Connection? { lock.withLock { connections.last?.connection } }

        /// A started server that answers every request "ok" and tells this of its connection.
        func server(_ configuration: HTTPServerConfiguration = .init()) throws -> HTTPServer {
            try startServer(configuration) { _, responder in
                self.add(responder)
                responder.respond(.text("ok"))
            }
        }
    }

    func testClosedConnectionsAreReleasedBeforeTheIdleTimeout() throws {
        let seen = Seen()
        // The idle timeout is far away: nothing may wait for it to let go of a connection.
        let server = try seen.server(.init(idleTimeout: .seconds(600)))
        defer { server.stop() }
        for n in 0..<20 {
            let client = try RawClient(port: server.port)
            let response = try client.roundTrip("GET /\(n) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            XCTAssertEqual(response.text, "ok")
            XCTAssertTrue(client.waitForClose())
        }
        let loop = try XCTUnwrap(seen.currentLoop)
        XCTAssertEqual(seen.count, 20)
        XCTAssertTrue(
            // State that settles on the loop right after the client saw the close.
            eventuallyBlocking {
                onLoop(loop) { loop.channelCount == 1 && loop.timerCount == 0 } == true
            },
            "only the listener stays registered, and no timer is left")
        XCTAssertEqual(seen.alive, 0, "every closed connection was released")
    }

    func testKeepAliveConnectionKeepsOneTimer() throws {
        let seen = Seen()
        let server = try seen.server()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for n in 0..<300 {
            XCTAssertEqual(try client.roundTrip("GET /\(n) HTTP/1.1\r\nHost: x\r\n\r\n").text, "ok")
        }
        let loop = try XCTUnwrap(seen.currentLoop)
        XCTAssertEqual(onLoop(loop) { loop.timerCount }, 1, "one idle timer, moved in place, not one per request")
        XCTAssertEqual(seen.alive, 1, "the open connection only")
    }

    func testNagleIsTurnedOffFromTheSecondWriteOn() throws {
        let seen = Seen()
        let server = try seen.server()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        XCTAssertEqual(try client.roundTrip("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n").text, "ok")
        let loop = try XCTUnwrap(seen.currentLoop)
        let connection = try XCTUnwrap(seen.last)
        XCTAssertEqual(onLoop(loop) { connection.noDelay }, false, "one write: nothing in flight for Nagle to wait on")
        XCTAssertEqual(try client.roundTrip("GET /2 HTTP/1.1\r\nHost: x\r\n\r\n").text, "ok")
        XCTAssertEqual(onLoop(loop) { connection.noDelay }, true, "the second response must not wait for an ACK")

        // 100-continue then the response: two writes for the first request.
        let other = try RawClient(port: server.port)
        try other.send("POST /c HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
        XCTAssertEqual(try other.readResponse().status, 100)
        try other.send("hi")
        XCTAssertEqual(try other.readResponse().text, "ok")
        XCTAssertEqual(onLoop(loop) { seen.last?.noDelay }, true)
    }

    func testPipelinedBytesBehindAClosingResponseDoNotResetIt() throws {
        // The server closes after /a while the client is still sending /b's large body: it must drain the
        // rest (linger) rather than close with unread input, which resets the connection: the client's send
        // would fail and the response could be lost.
        let server = try startServer()
        defer { server.stop() }
        let body = String(repeating: "x", count: 4 << 20)
        for _ in 0..<3 {
            let client = try RawClient(port: server.port)
            try client.send(
                "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let response = try client.readResponse()
            XCTAssertEqual(response.text, "GET /a ")
            XCTAssertEqual(response.header("Connection"), "close")
            XCTAssertTrue(client.waitForClose())
        }
    }
}
