import Foundation
import StubTestSupport
import XCTest

@testable import StubHTTP

/// A client that sends its request and then shuts its sending side (`shutdown(SHUT_WR)`, as `curl
/// --http1.0`-style tools and some proxies do) still gets its response. Darwin's poll(2) reports POLLHUP
/// together with POLLIN as soon as the FIN arrives, before the request bytes are read; each test runs on
/// every backend, Darwin emulation included.
final class HalfCloseTests: XCTestCase {
    static let backends: [SelectorBackend] = [.platformDefault, .poll, .darwinEmulation]

    func server(
        _ backend: SelectorBackend,
        handler: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void = echoHandler
    ) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        configuration.selectorBackend = backend
        return try startServer(configuration, handler: handler)
    }

    func testRequestThenShutdownWriteGetsTheResponse() throws {
        for backend in Self.backends {
            let server = try server(backend)
            defer { server.stop() }
            let client = try RawClient(port: server.port)
            try client.send("POST /half HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
            client.shutdownWrite()
            let response = try client.readResponse()
            XCTAssertEqual(response.text, "POST /half abc", "\(backend)")
            XCTAssertTrue(client.waitForClose(), "\(backend)")
        }
    }

    func testPipelinedRequestsThenShutdownWriteGetEveryResponse() throws {
        for backend in Self.backends {
            let server = try server(backend)
            defer { server.stop() }
            let client = try RawClient(port: server.port)
            try client.send(
                "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\nGET /3 HTTP/1.1\r\nHost: x\r\n\r\n"
            )
            client.shutdownWrite()
            for n in 1...3 { XCTAssertEqual(try client.readResponse().text, "GET /\(n) ", "\(backend)") }
            XCTAssertTrue(client.waitForClose(), "\(backend)")
        }
    }

    func testShutdownWriteBeforeADelayedResponseStillGetsIt() throws {
        for backend in Self.backends {
            let server = try server(backend) { request, responder in
                responder.respond(.text("later \(request.target)"), after: .milliseconds(100))
            }
            defer { server.stop() }
            let client = try RawClient(port: server.port)
            try client.send("GET /delayed HTTP/1.1\r\nHost: x\r\n\r\n")
            client.shutdownWrite()
            // The interim 100 Continue is the server checking that the client is still there (a client
            // that closed for good answers it with a reset, which drops the pending response).
            XCTAssertEqual(try client.readResponse().status, 100, "\(backend)")
            XCTAssertEqual(try client.readResponse().text, "later /delayed", "\(backend)")
            XCTAssertTrue(client.waitForClose(), "\(backend)")
            // The server still serves others.
            XCTAssertEqual(
                try RawClient(port: server.port).roundTrip("GET /next HTTP/1.1\r\nHost: x\r\n\r\n").text,
                "later /next", "\(backend)")
        }
    }

    func testAnHTTP10ClientShutdownWriteBeforeADelayedResponseGetsItWithoutAnInterimResponse() throws {
        for backend in Self.backends {
            let server = try server(backend) { request, responder in
                responder.respond(.text("later \(request.target)"), after: .milliseconds(100))
            }
            defer { server.stop() }
            let client = try RawClient(port: server.port)
            try client.send("GET /old HTTP/1.0\r\n\r\n")
            client.shutdownWrite()
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 200, "\(backend)")
            XCTAssertEqual(response.text, "later /old", "\(backend)")
            XCTAssertTrue(client.waitForClose(), "\(backend)")
        }
    }

    func testShutdownWriteDuringAPacedResponseStillGetsAllOfIt() throws {
        for backend in Self.backends {
            let server = try server(backend) { _, responder in
                responder.respond(PreparedResponse(.text("0123456789")), pacing: .chunks(5, over: .milliseconds(250)))
            }
            defer { server.stop() }
            let client = try RawClient(port: server.port)
            try client.send("GET /paced HTTP/1.1\r\nHost: x\r\n\r\n")
            client.shutdownWrite()
            // One byte may come early (the check that the client is still there); all of them come.
            XCTAssertEqual(try client.readResponse().text, "0123456789", "\(backend)")
            XCTAssertTrue(client.waitForClose(), "\(backend)")
        }
    }

    func testShutdownWriteDuringAStreamedResponseStillGetsAllOfIt() throws {
        for backend in Self.backends {
            let started = LockedValue<(HTTPResponseStream, Connection)?>(nil)
            let server = try server(backend) { _, responder in
                let stream = responder.startStreaming(.text(""))
                started.withLock { $0 = (stream, responder.connection) }
            }
            defer { server.stop() }
            let client = try RawClient(port: server.port)
            try client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            client.shutdownWrite()
            // The body is written once the server has read the client's end of input, in two parts.
            let halfClosed = eventuallyBlocking {
                guard let connection = started.withLock({ $0?.1 }) else { return false }
                return onLoop(connection.loop) { connection.inputDone } == true
            }
            XCTAssertTrue(halfClosed, "the server never saw the half-close (\(backend))")
            let stream = try XCTUnwrap(started.withLock { $0?.0 })
            stream.write(Array("one,".utf8))
            stream.write(Array("two".utf8))
            stream.finish()
            XCTAssertEqual(try client.readResponse().text, "one,two", "\(backend)")
            XCTAssertTrue(client.waitForClose(), "\(backend)")
        }
    }

    func testAClientThatClosesBeforeItsDelayedResponseLeavesTheServerServing() throws {
        for backend in Self.backends {
            let server = try server(backend) { _, responder in
                responder.respond(.text("late"), after: .milliseconds(100))
            }
            defer { server.stop() }
            do {
                let gone = try RawClient(port: server.port)
                try gone.send("GET /gone HTTP/1.1\r\nHost: x\r\n\r\n")
            }  // closed here, before the answer
            XCTAssertEqual(
                try RawClient(port: server.port).roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n").text, "late",
                "\(backend)")
        }
    }
}
