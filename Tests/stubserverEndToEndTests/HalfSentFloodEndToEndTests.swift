// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    #if os(Linux)
        import Foundation
        import Glibc
        import StubHTTP
        import StubClient
        import StubKit
        import StubTestSupport
        import XCTest

        /// Against the binary: under `ulimit -n 64`, 120 connections that each send half a
        /// request head and then nothing fill the server's descriptors. With no silent connection left to close,
        /// the server closes the oldest half-sent heads to take the clients waiting in the backlog, so a new
        /// client is answered at once rather than when the flood's heads time out (10 s, `408`).
        final class HalfSentFloodEndToEndTests: XCTestCase {
            func testHalfSentHeadsMakeRoomForANewClientWhenNoSilentConnectionIsLeft() throws {
                let server = try StubServerProcess.launch(openFiles: 64)
                defer { server.stop() }
                let port = try XCTUnwrap(server.baseURL.port)
                var halfSent: [Int32] = []
                defer { halfSent.forEach { close($0) } }
                for _ in 0..<120 {
                    let fd = try RawSocket.connectLoopback(port: port, timeoutSeconds: 30)
                    halfSent.append(fd)
                    try RawSocket.sendAll(fd, Array("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ".utf8))
                }

                let answer = try RawSocket.exchange(
                    port: port, Array("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8),
                    timeoutSeconds: 30)
                let text = String(decoding: answer, as: UTF8.self)
                XCTAssertTrue(text.hasPrefix("HTTP/1.1 200"), "a new client during the flood got: \(text.prefix(200))")
                XCTAssertTrue(text.hasSuffix("Hello, stubserver"), "body: \(text.suffix(100))")

                // The oldest head was evicted: end of stream, not the 408 its header timeout would have sent.
                var buffer = [UInt8](repeating: 0, count: 64)
                let count = buffer.withUnsafeMutableBytes { recv(halfSent[0], $0.baseAddress, $0.count, 0) }
                XCTAssertEqual(
                    count, 0,
                    "the oldest half-sent head sees EOF, got: "
                        + (count > 0
                            ? String(decoding: buffer[..<count], as: UTF8.self) : "recv \(count), errno \(errno)"))

                // Clients keep arriving during the flood, four at a time: each is answered, none is closed as silent
                // in the moment between its accept and its request (the heads give way instead).
                let failures = LockedValue<[String]>([])
                DispatchQueue.concurrentPerform(iterations: 4) { _ in
                    for _ in 0..<15 {
                        do {
                            let answer = try RawSocket.exchange(
                                port: port,
                                Array("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8),
                                timeoutSeconds: 30)
                            let text = String(decoding: answer, as: UTF8.self)
                            if !text.hasPrefix("HTTP/1.1 200") {
                                failures.withLock { $0.append("got: \(text.prefix(80))") }
                            }
                        } catch {
                            failures.withLock { $0.append("\(error)") }
                        }
                    }
                }
                XCTAssertEqual(failures.withLock { $0 }, [], "clients arriving during the flood")
            }
        }
    #endif
#endif
