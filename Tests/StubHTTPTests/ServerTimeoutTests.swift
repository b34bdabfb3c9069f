import StubTestSupport
import XCTest

@testable import StubHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Timeouts measure inactivity on real sockets: slow but steady clients are served in full, and a slow
/// handler does not make deadlines count from the past.
final class ServerTimeoutTests: XCTestCase {
    func testSlowButSteadyReaderGetsTheWholeBodyPastTheIdleTimeout() throws {
        let body = [UInt8](repeating: UInt8(ascii: "r"), count: 10 << 20)
        let server = try startServer(.init(idleTimeout: .seconds(1))) { _, responder in
            responder.respond(HTTPResponse(body: body))
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #if os(Linux)
            var small: Int32 = 32 * 1024  // no receive-buffer autotuning: the server's writes block sooner
            setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        #endif
        try client.send("GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        // 32 KB every 10 ms: never a second without progress, but the whole body takes several idle timeouts.
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 32 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received.append(contentsOf: chunk[0..<count])
            usleep(10_000)
        }
        guard let headEnd = received.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else {
            return XCTFail("no response head in \(received.count) bytes")
        }
        XCTAssertEqual(received.count - headEnd, body.count, "the whole body, then the server closed")
    }

    func testSlowButSteadyUploadIsNotCutOffByTheHeaderReadTimeout() throws {
        let server = try startServer(.init(headerReadTimeout: .seconds(1), idleTimeout: .seconds(1)))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let length = 48 * 1024
        try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n")
        let piece = [UInt8](repeating: UInt8(ascii: "u"), count: 1024)
        for _ in 0..<(length / piece.count) {  // 48 pieces, 40 ms apart: about twice the header-read timeout
            try client.send(piece)
            usleep(40_000)
        }
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("X-Body-Length"), String(length))
    }

    func testStalledBodyStillTimesOut() throws {
        let server = try startServer(.init(headerReadTimeout: .milliseconds(200), idleTimeout: .milliseconds(200)))
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 408)
        XCTAssertTrue(client.waitForClose())
    }

    func testDelayAfterASlowHandlerCountsFromTheAnswerNotTheWakeUp() throws {
        let server = try startServer { _, responder in
            usleep(400_000)  // a handler that (wrongly) blocks its loop thread
            responder.respond(.text("late"), after: .milliseconds(400))
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let clock = ContinuousClock()
        let start = clock.now
        let response = try client.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let elapsed = clock.now - start
        XCTAssertEqual(response.text, "late")
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(800), "400 ms in the handler, then the 400 ms delay")
    }
}
