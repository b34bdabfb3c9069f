import Foundation
import StubTestSupport
import XCTest

@testable import StubHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The engine's paced responses and deliberate failures, over real loopback sockets.
final class PacingAndFailureTests: XCTestCase {
    private let body = [UInt8](repeating: 0x7A, count: 3_000)

    private func pacedServer() throws -> HTTPServer {
        let prepared = PreparedResponse(HTTPResponse(headers: ["Content-Type": "text/plain"], body: body))
        return try startServer { request, responder in
            switch request.path {
            case "/chunks": responder.respond(prepared, pacing: .chunks(3, over: .milliseconds(300)))
            case "/chunks-then-stream":
                responder.respond(prepared, pacing: .chunks(3, over: .milliseconds(300)))
                let late = responder.startStreaming(.text(""))  // too late: the paced answer won
                late.write(Array("late".utf8))
                late.finish()
            case "/rate": responder.respond(prepared, pacing: .bytesPerSecond(20_000), after: .milliseconds(50))
            case "/reset": responder.respond(.failure(.reset))
            case "/empty": responder.respond(.failure(.closeWithoutResponse))
            case "/raw":
                responder.respond(.failure(.rawBytesThenClose(Array("not http\r\n".utf8))), after: .milliseconds(20))
            default: responder.respond(.text("plain"))
            }
        }
    }

    func testPacedResponsesKeepTheConnectionAndTheOrderOfPipelinedRequests() throws {
        let server = try pacedServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        // Pipelined: the plain response must wait for the paced one before it.
        try client.send("GET /chunks HTTP/1.1\r\nHost: x\r\n\r\nGET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
        let paced = try client.readResponse()
        XCTAssertEqual(paced.status, 200)
        XCTAssertEqual(paced.header("Content-Length"), "3000")
        XCTAssertEqual(paced.body, body)
        XCTAssertEqual(try client.readResponse().text, "plain")
        let rated = try client.roundTrip("GET /rate HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(rated.body, body)
        let head = try client.roundTrip("HEAD /chunks HTTP/1.1\r\nHost: x\r\n\r\n", head: true)
        XCTAssertEqual(head.header("Content-Length"), "3000")
        XCTAssertTrue(head.body.isEmpty)
        XCTAssertEqual(try client.roundTrip("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n").text, "plain")
    }

    func testAStreamStartedTooLateNeitherWritesIntoNorEndsAPacedResponse() throws {
        let server = try pacedServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let paced = try client.roundTrip("GET /chunks-then-stream HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(paced.header("Content-Length"), "3000")
        XCTAssertEqual(paced.body, body)
        XCTAssertEqual(try client.roundTrip("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n").text, "plain")
    }

    func testAClientLeavingDuringAPacedResponseHurtsNoOne() throws {
        let server = try pacedServer()
        defer { server.stop() }
        do {
            let leaving = try RawClient(port: server.port)
            try leaving.send("GET /chunks HTTP/1.1\r\nHost: x\r\n\r\n")
        }  // closed at once
        let client = try RawClient(port: server.port)
        XCTAssertEqual(try client.roundTrip("GET /chunks HTTP/1.1\r\nHost: x\r\n\r\n").body, body)
        XCTAssertEqual(try client.roundTrip("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n").text, "plain")
    }

    func testFailuresResetCloseOrSendRawBytes() throws {
        let server = try pacedServer()
        defer { server.stop() }
        for (path, expected) in [("/reset", ECONNRESET), ("/empty", 0)] {
            let client = try RawClient(port: server.port)
            try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            var chunk = [UInt8](repeating: 0, count: 64)
            let n = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
            XCTAssertEqual(n <= 0 ? (n == 0 ? 0 : errno) : -1, expected, path)
        }
        let raw = try RawClient(port: server.port)
        try raw.send("GET /raw HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(raw.waitForClose())
        XCTAssertEqual(String(decoding: raw.unread, as: UTF8.self), "not http\r\n")
        XCTAssertEqual(
            try RawClient(port: server.port).roundTrip("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n").text, "plain")
    }

    func testPacingSlices() {
        XCTAssertEqual(WritePacing.chunks(3, over: .milliseconds(300)).sliceSize(bodyCount: 3_000), 1_000)
        XCTAssertEqual(WritePacing.chunks(4, over: .seconds(1)).sliceSize(bodyCount: 10), 3)
        XCTAssertEqual(WritePacing.chunks(5, over: .seconds(1)).interval, .milliseconds(200))
        let slow = WritePacing.bytesPerSecond(1_000)
        XCTAssertEqual(slow.interval, .milliseconds(100))
        XCTAssertEqual(slow.sliceSize(bodyCount: 0), 100)
        let fast = WritePacing.bytesPerSecond(10_000_000)
        XCTAssertEqual(fast.interval, .milliseconds(10))
        XCTAssertEqual(fast.sliceSize(bodyCount: 0), 100_000)
    }
}
