// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    #if os(Linux)
        import Foundation
        import Glibc
        import StubClient
        import StubKit
        import StubTestSupport
        import XCTest

        /// Against the binary: under `ulimit -n 64`, 120 connections that never send a byte
        /// exhaust the server's descriptors and `accept` fails with EMFILE. The server closes the idlest of the
        /// silent ones to take the clients waiting in the backlog, so a new client is answered at once instead
        /// of after the flood's 60 s idle timeout, while connections half-way through a request keep their place.
        final class IdleFloodEndToEndTests: XCTestCase {
            func testSilentConnectionsMakeRoomForANewClientAndHalfSentRequestsKeepTheirPlace() throws {
                let server = try StubServerProcess.launch(openFiles: 64)
                defer { server.stop() }
                let port = try XCTUnwrap(server.baseURL.port)
                var sockets: [Int32] = []
                defer { sockets.forEach { close($0) } }

                // Half-sent requests first: older than every silent connection, yet never evicted.
                var partial: [Int32] = []
                for _ in 0..<4 {
                    let fd = try RawSocket.connectLoopback(port: port, timeoutSeconds: 30)
                    sockets.append(fd)
                    partial.append(fd)
                    try RawSocket.sendAll(fd, Array("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
                }
                // More silent connections than the server has descriptors (the kernel completes them from the backlog).
                var silent: [Int32] = []
                for _ in 0..<120 {
                    let fd = try RawSocket.connectLoopback(port: port, timeoutSeconds: 30)
                    sockets.append(fd)
                    silent.append(fd)
                }

                // Without eviction the new client would wait in the backlog for the 60 s idle timeout.
                try assertNewClientServedAndOldestClosed(port: port, silent: silent)

                // The half-sent requests complete and are answered: 200, or 408 had a loaded machine taken longer
                // than the 10 s header timeout, but never a bare end of stream.
                for fd in partial {
                    try RawSocket.sendAll(fd, Array("\r\n".utf8))
                    var buffer = [UInt8](repeating: 0, count: 64)
                    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    let head =
                        count > 0
                        ? String(decoding: buffer[..<count], as: UTF8.self) : "(recv \(count), errno \(errno))"
                    XCTAssertTrue(
                        head.hasPrefix("HTTP/1.1 200") || head.hasPrefix("HTTP/1.1 408"),
                        "a half-sent request got: \(head)")
                }
            }

            /// `--max-connections 8`: the limit, not the descriptor table, is what the flood fills. 20 silent
            /// connections later a new client is answered and the oldest silent connection has seen EOF.
            func testMaxConnectionsIsTheLimitSilentConnectionsMakeRoomUnder() throws {
                let server = try StubServerProcess.launch(
                    executable: Paths.stubserverBinary(), stubs: Paths.demoStubs,
                    arguments: ["--max-connections", "8"])
                defer { server.stop() }
                let port = try XCTUnwrap(server.baseURL.port)
                var silent: [Int32] = []
                defer { silent.forEach { close($0) } }
                for _ in 0..<20 {
                    silent.append(try RawSocket.connectLoopback(port: port, timeoutSeconds: 30))
                }
                try assertNewClientServedAndOldestClosed(port: port, silent: silent)
            }

            /// A new client gets the demo's `/hello` (the exchange gives up after 30 s without a byte), and the
            /// oldest of `silent` was evicted: end of stream, not a byte of an answer.
            private func assertNewClientServedAndOldestClosed(
                port: Int, silent: [Int32],
                file: StaticString = #filePath, line: UInt = #line
            ) throws {
                let answer = try RawSocket.exchange(
                    port: port, Array("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8),
                    timeoutSeconds: 30)
                let text = String(decoding: answer, as: UTF8.self)
                XCTAssertTrue(
                    text.hasPrefix("HTTP/1.1 200"), "a new client during the flood got: \(text.prefix(200))",
                    file: file, line: line)
                XCTAssertTrue(text.hasSuffix("Hello, stubserver"), "body: \(text.suffix(100))", file: file, line: line)
                var byte: UInt8 = 0
                XCTAssertEqual(
                    recv(silent[0], &byte, 1, 0), 0, "the oldest silent connection sees EOF (errno \(errno))",
                    file: file, line: line)
            }
        }
    #endif
#endif
