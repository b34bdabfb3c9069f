import StubTestSupport
import XCTest

@testable import StubHTTP

final class SocketTests: XCTestCase {
    func testResolvesLiteralsAndLocalhost() throws {
        XCTAssertEqual(SocketAddress.resolve(host: "127.0.0.1", port: 80)?.description, "127.0.0.1:80")
        XCTAssertEqual(SocketAddress.resolve(host: "::1", port: 8080)?.description, "[::1]:8080")
        XCTAssertEqual(SocketAddress.resolve(host: "[::1]", port: 1)?.description, "[::1]:1")
        let localhost = try XCTUnwrap(SocketAddress.resolve(host: "localhost", port: 9))
        XCTAssertTrue(["127.0.0.1", "::1"].contains(localhost.host), localhost.description)
        XCTAssertNil(SocketAddress.resolve(host: "127.0.0.1", port: 70000))
        XCTAssertNil(SocketAddress.resolve(host: "", port: 80))
    }

    func testListenOnPortZeroGetsARealPortAndAcceptIsNonBlocking() throws {
        let address = try XCTUnwrap(SocketAddress.resolve(host: "127.0.0.1", port: 0))
        let listener = try Socket.listen(on: address, backlog: 8)
        defer { listener.close() }
        let bound = try listener.localAddress()
        XCTAssertGreaterThan(bound.port, 0)
        XCTAssertNil(try listener.accept(), "no pending connection: would block, not wait")
        let client = try RawClient(port: bound.port)
        var accepted: Socket?
        _ = try eventuallyBlocking(every: .milliseconds(1)) {
            accepted = try listener.accept()
            return accepted != nil
        }
        let connection = try XCTUnwrap(accepted)
        defer { connection.close() }
        try client.send("ping")
        var buffer = [UInt8](repeating: 0, count: 16)
        var result: IOResult<Int> = .wouldBlock
        _ = try eventuallyBlocking(every: .milliseconds(1)) {
            result = try buffer.withUnsafeMutableBytes { try connection.read(into: $0) }
            if case .processed = result { return true }
            return false
        }
        guard case .processed(let count) = result else { return XCTFail("nothing read") }
        XCTAssertEqual(Array(buffer[0..<count]), Array("ping".utf8))
        XCTAssertTrue(connection.remoteAddressDescription().hasPrefix("127.0.0.1:"))

        XCTAssertEqual(noDelay(connection.fd), 0, "Nagle stays on until the connection writes a second time")
        connection.setNoDelay()
        XCTAssertNotEqual(noDelay(connection.fd), 0)
    }

    func noDelay(_ fd: Int32) -> Int32 {
        var value: Int32 = -1
        var length = socklen_t(MemoryLayout<Int32>.size)
        XCTAssertEqual(getsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length), 0)
        return value
    }

    func testSecondBindFailsWithAddressInUse() throws {
        let address = try XCTUnwrap(SocketAddress.resolve(host: "127.0.0.1", port: 0))
        let first = try Socket.listen(on: address, backlog: 8)
        defer { first.close() }
        let taken = try XCTUnwrap(SocketAddress.resolve(host: "127.0.0.1", port: try first.localAddress().port))
        XCTAssertThrowsError(try Socket.listen(on: taken, backlog: 8)) { error in
            XCTAssertEqual((error as? SocketError)?.errno, EADDRINUSE)
            XCTAssertEqual((error as? SocketError)?.call, "bind")
        }
    }

    func testSocketErrorDescription() {
        XCTAssertEqual(
            SocketError(errno: EADDRINUSE, call: "bind").description,
            "bind failed: Address already in use (errno \(EADDRINUSE))")
    }
}
