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

        /// The binary under `ulimit -n 64` with more connections than descriptors: `accept` fails with EMFILE.
        /// Every connection is half-way through a request head, so none can be evicted to make room (see
        /// `IdleFloodEndToEndTests`): the server must back off instead of spinning on the still-readable
        /// listener, and serve again once connections close.
        final class DescriptorExhaustionTests: XCTestCase {
            func testOutOfDescriptorsDoesNotSpinAndServesAgainAfterwards() throws {
                let server = try StubServerProcess.launch(openFiles: 64)
                defer { server.stop() }
                let port = try XCTUnwrap(server.baseURL.port)

                // 150 connections the kernel completes from the backlog, each with part of a request head (the
                // 10 s header timeout is far away); the server can hold fewer than 64 descriptors.
                var clients: [Int32] = []
                defer { clients.forEach { close($0) } }
                for _ in 0..<150 {
                    guard let fd = try? RawSocket.connectLoopback(port: port, timeoutSeconds: 5) else { break }
                    clients.append(fd)
                    try RawSocket.sendAll(fd, Array("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
                }
                XCTAssertEqual(clients.count, 150)

                // Once the server is out of descriptors (all 64 in use, connections left in the listener's backlog),
                // a bounded interval: a spinning accept loop burns a core (or its share of a loaded machine, 26% at
                // load 18 when measured); backing off burns almost nothing (0.5%).
                let exhausted = eventuallyBlocking(timeout: .seconds(30), every: .milliseconds(100)) {
                    KernelSockets.descriptorCount(server.pid) >= 64
                        && KernelSockets.entries().contains {
                            $0.localPort == port && $0.isListening && $0.receiveQueue > 0
                        }
                }
                XCTAssertTrue(exhausted, "\(KernelSockets.descriptorCount(server.pid)) descriptors in use")
                let clock = ContinuousClock()
                let cpuBefore = try server.cpuSeconds()
                let start = clock.now
                usleep(2_000_000)  // the interval measured, not a wait for anything
                let wall = (clock.now - start) / .seconds(1)
                let cpu = try server.cpuSeconds() - cpuBefore
                XCTAssertLessThan(cpu, wall * 0.1, "\(cpu) s of CPU in \(wall) s while out of descriptors")

                clients.forEach { close($0) }
                clients.removeAll()
                let served = eventuallyBlocking(timeout: .seconds(20)) {
                    let answer = try? RawSocket.exchange(
                        port: port, Array("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
                    return answer.map { String(decoding: $0, as: UTF8.self).hasPrefix("HTTP/1.1 200") } ?? false
                }
                XCTAssertTrue(served, "the server answers again once the connections are closed")
            }
        }
    #endif
#endif
