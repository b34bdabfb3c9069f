import Foundation
import StubTestSupport
import XCTest

@testable import StubHTTP

/// Black-box tests over real loopback sockets: bad input, limits, timeouts and load.
final class ServerRobustnessTests: XCTestCase {
    final class Rejections: @unchecked Sendable {
        private let lock = NSLock()
        private var errors: [ParserError] = []
        func add(_ error: ParserError) { lock.withLock { errors.append(error) } }
        var all: [ParserError] { lock.withLock { errors } }
    }

    struct RecordingHandler: HTTPHandler {
        let rejections: Rejections
        func handle(_ request: HTTPRequest, responder: HTTPResponder) { echoHandler(request, responder) }
        func didReject(_ error: ParserError, remoteAddress: String) { rejections.add(error) }
    }

    func testMalformedRequestGets400AndCloseWhileOthersAreServed() throws {
        let rejections = Rejections()
        let server = HTTPServer(handler: RecordingHandler(rejections: rejections))
        try server.start()
        defer { server.stop() }
        let good = try RawClient(port: server.port)
        XCTAssertEqual(try good.roundTrip("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
        let bad = try RawClient(port: server.port)
        let response = try bad.roundTrip("GET /x HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n")
        XCTAssertEqual(response.status, 400)
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertEqual(response.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertTrue(bad.waitForClose())
        XCTAssertEqual(try good.roundTrip("GET /2 HTTP/1.1\r\nHost: x\r\n\r\n").text, "GET /2 ")
        XCTAssertEqual(rejections.all.map(\.status.code), [400])
    }

    func testLimitsAndUnsupportedFeaturesGetTheirStatus() throws {
        let limits = ParserLimits(maxRequestLineBytes: 100, maxHeaderBytes: 400, maxHeaderCount: 10, maxBodyBytes: 10)
        let server = try startServer(.init(limits: limits))
        defer { server.stop() }
        let cases: [(String, Int)] = [
            ("GET /\(String(repeating: "a", count: 200)) HTTP/1.1\r\nHost: x\r\n\r\n", 414),
            ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 500))\r\n\r\n", 431),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world", 413),
            ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
            ("GET / HTTP/1.1\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400),
            ("GET / HTTP/1.0\r\nHost: x\r\nHost: y\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505)
        ]
        for (request, status) in cases {
            let client = try RawClient(port: server.port)
            let response = try client.roundTrip(request)
            XCTAssertEqual(response.status, status, request)
            XCTAssertEqual(response.header("Connection"), "close")
            XCTAssertTrue(client.waitForClose())
        }
    }

    func testHTTP10WithoutHostIsServedAndHTTP11WithoutHostIsNot() throws {
        let server = try startServer(.init())
        defer { server.stop() }
        let old = try RawClient(port: server.port)
        let legacy = try old.roundTrip("GET /old HTTP/1.0\r\n\r\n")
        XCTAssertEqual(legacy.status, 200)
        XCTAssertEqual(legacy.text, "GET /old ")
        let new = try RawClient(port: server.port)
        let refused = try new.roundTrip("GET /new HTTP/1.1\r\n\r\n")
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue(refused.text.contains("no Host header field"), refused.text)
        XCTAssertEqual(refused.header("Connection"), "close")
        XCTAssertTrue(new.waitForClose())
    }

    func testFiveHundredConcurrentConnectionsEachCompleteARequest() throws {
        // 500 clients and 500 server sockets: more than macOS's default soft limit of 256.
        let limit = raiseOpenFileLimit()
        try XCTSkipIf(limit < 1100, "the open-files limit is \(limit) and cannot be raised")
        let server = try startServer(.init(eventLoopCount: 2))
        defer { server.stop() }
        let clients = try (0..<500).map { _ in try RawClient(port: server.port) }
        for (index, client) in clients.enumerated() { try client.send("GET /\(index) HTTP/1.1\r\nHost: x\r\n\r\n") }
        let failures = LockedFailures()
        DispatchQueue.concurrentPerform(iterations: 500) { index in
            do {
                let response = try clients[index].readResponse()
                if response.text != "GET /\(index) " { failures.add("\(index): \(response.text)") }
            } catch {
                failures.add("\(index): \(error)")
            }
        }
        XCTAssertEqual(failures.all, [])
    }

    func testSlowlorisIsClosedWhileOthersAreServed() throws {
        let server = try startServer(.init(headerReadTimeout: .milliseconds(300)))
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        try slow.send("GET /slow HTTP/1.1\r\nHost: x\r\nX-A: ")
        // Served meanwhile.
        for n in 0..<3 {
            XCTAssertEqual(
                try RawClient(port: server.port).roundTrip("GET /\(n) HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
        }
        // Eventually answered 408 and closed.
        let response = try slow.readResponse()
        XCTAssertEqual(response.status, 408)
        XCTAssertTrue(slow.waitForClose())
    }

    func testIdleKeepAliveConnectionIsClosed() throws {
        let server = try startServer(.init(idleTimeout: .milliseconds(200)))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        XCTAssertEqual(try client.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
        XCTAssertTrue(client.waitForClose())
        XCTAssertTrue(client.unread.isEmpty)
    }

    func testConnectionsOverTheLimitGet503() throws {
        let server = try startServer(.init(maxConnections: 3))
        defer { server.stop() }
        // Each sends a request before the next connects: a connection that never sent a byte would be closed
        // to make room (IdleFloodTests).
        let held = try (0..<3).map { _ in
            let client = try RawClient(port: server.port)
            XCTAssertEqual(try client.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
            return client
        }
        let extra = try RawClient(port: server.port)
        let response = try extra.readResponse()
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(extra.waitForClose())
        // The held connections still work.
        XCTAssertEqual(try held[0].roundTrip("GET /still HTTP/1.1\r\nHost: x\r\n\r\n").text, "GET /still ")
    }

    func testHalfClosedClientStillGetsADelayedAnswer() throws {
        let server = try startServer { _, responder in responder.respond(.text("later"), after: .milliseconds(200)) }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        client.shutdownWrite()
        // First the interim 100 Continue that checks the client is still there (see HalfCloseTests).
        XCTAssertEqual(try client.readResponse().status, 100)
        let response = try client.readResponse()
        XCTAssertEqual(response.text, "later")
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertTrue(client.waitForClose())
        // The server is still responsive.
        XCTAssertEqual(try RawClient(port: server.port).roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n").text, "later")
    }

    func testResponderAnswersOnlyOnce() throws {
        let server = try startServer { _, responder in
            responder.respond(.text("first"))
            responder.respond(.text("second"))
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        XCTAssertEqual(try client.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n").text, "first")
        XCTAssertEqual(try client.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n").text, "first")
    }

    func testLargeResponseIsFlushedUnderBackpressure() throws {
        let big = [UInt8](repeating: UInt8(ascii: "z"), count: 8 << 20)
        let connection = LockedValue<Connection?>(nil)
        let server = try startServer { _, responder in
            connection.withLock { $0 = responder.connection }
            responder.respond(HTTPResponse(body: big))
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        // Nothing is read until the server's socket is full (a write would block: it waits to be writable).
        let blocked = eventuallyBlocking {
            guard let connection = connection.withLock({ $0 }) else { return false }
            return onLoop(connection.loop) { connection.watchingWritable } == true
        }
        XCTAssertTrue(blocked, "the server never had to wait for the socket")
        XCTAssertEqual(try client.readResponse().body.count, big.count)
        XCTAssertEqual(try client.readResponse().body.count, big.count)
    }
}

final class LockedFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [String] = []
    func add(_ failure: String) { lock.withLock { failures.append(failure) } }
    var all: [String] { lock.withLock { failures } }
}
