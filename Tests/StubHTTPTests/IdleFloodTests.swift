import Foundation
import StubTestSupport
import XCTest

@testable import StubHTTP

/// Connections that never send a byte cannot lock real clients out. Near the connection
/// limit the server closes the oldest connections that never sent a byte (as nginx and HAProxy do), so a
/// new client is answered instead of getting `503` or waiting for the flood's idle timeout. A connection
/// that sent a request, or part of one, is never evicted.
final class IdleFloodTests: XCTestCase {
    private static let hello: @Sendable (HTTPRequest, HTTPResponder) -> Void = { request, responder in
        responder.respond(.text("hello \(request.target)"))
    }

    func testANewClientIsServedWhileSilentConnectionsFillTheServer() throws {
        try assertNewClientServedDuringFlood(eventLoops: 1)
    }

    func testANewClientIsServedWhileSilentConnectionsFillAServerWithTwoLoops() throws {
        try assertNewClientServedDuringFlood(eventLoops: 2)
    }

    private func assertNewClientServedDuringFlood(eventLoops: Int, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let server = try startServer(.init(eventLoopCount: eventLoops, maxConnections: 16), handler: Self.hello)
        defer { server.stop() }
        // Connections that sent a request and wait, idle, for the next one.
        let keptAlive = try (0..<2).map { index in
            let client = try RawClient(port: server.port, timeout: .seconds(30))
            XCTAssertEqual(
                try client.roundTrip("GET /keep/\(index) HTTP/1.1\r\nHost: x\r\n\r\n").text, "hello /keep/\(index)",
                file: file, line: line)
            return client
        }
        // Connections half-way through a request head.
        let partial = try (0..<2).map { index in
            let client = try RawClient(port: server.port, timeout: .seconds(30))
            try client.send("GET /partial/\(index) HTTP/1.1\r\nHost: x\r\n")
            return client
        }
        // More silent connections than the limit allows.
        let flood = try (0..<24).map { _ in try RawClient(port: server.port, timeout: .seconds(30)) }

        let response = try RawClient(port: server.port, timeout: .seconds(30)).roundTrip(
            "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(response.status, 200, "a new client got \(response.statusLine)", file: file, line: line)
        XCTAssertEqual(response.text, "hello /hello", file: file, line: line)
        // Silent connections were closed without a byte (EOF, not a 503) before the new client was answered.
        let evicted = Self.closedWithoutAByte(flood)
        XCTAssertFalse(evicted.isEmpty, "no silent connection was closed to make room", file: file, line: line)
        if eventLoops == 1 {
            // One loop sees every connection: the oldest silent one went first.
            XCTAssertTrue(evicted.first === flood[0], "the oldest silent connection was closed", file: file, line: line)
        }
        // The half-sent requests were kept and are answered; so are the kept-alive connections.
        for (index, client) in partial.enumerated() {
            try client.send("\r\n")
            XCTAssertEqual(try client.readResponse().text, "hello /partial/\(index)", file: file, line: line)
        }
        for (index, client) in keptAlive.enumerated() {
            XCTAssertEqual(
                try client.roundTrip("GET /again/\(index) HTTP/1.1\r\nHost: x\r\n\r\n").text, "hello /again/\(index)",
                file: file, line: line)
        }
    }

    /// The clients whose connection ended without a byte, as soon as there is one (within 30 s).
    private static func closedWithoutAByte(_ clients: [RawClient]) -> [RawClient] {
        var closed: [RawClient] = []
        _ = eventuallyBlocking {
            closed = clients.filter(\.endedWithoutAByte)
            return !closed.isEmpty
        }
        return closed
    }

    func testConnectionsThatSentARequestOrPartOfOneAreNeverEvicted() throws {
        let server = try startServer(.init(maxConnections: 4), handler: Self.hello)
        defer { server.stop() }
        let keptAlive = try (0..<2).map { index in
            let client = try RawClient(port: server.port, timeout: .seconds(30))
            XCTAssertEqual(try client.roundTrip("GET /keep/\(index) HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
            return client
        }
        let partial = try (0..<2).map { index in
            let client = try RawClient(port: server.port, timeout: .seconds(30))
            try client.send("GET /partial/\(index) HTTP/1.1\r\nHost: x\r\n")
            return client
        }
        // Nothing can be evicted: the newcomer is refused, the others keep their place.
        let response = try RawClient(port: server.port, timeout: .seconds(30)).readResponse()
        XCTAssertEqual(response.status, 503)
        for (index, client) in partial.enumerated() {
            try client.send("\r\n")
            XCTAssertEqual(try client.readResponse().text, "hello /partial/\(index)")
        }
        for (index, client) in keptAlive.enumerated() {
            XCTAssertEqual(
                try client.roundTrip("GET /again/\(index) HTTP/1.1\r\nHost: x\r\n\r\n").text, "hello /again/\(index)")
        }
    }
}
