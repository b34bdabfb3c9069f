import Foundation
import StubTestSupport
import XCTest

@testable import StubHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Darwin emulation behaves as Darwin's poll(2) does where it differs from Linux's (see
/// ``DarwinEmulation``), so the engine's handling of those differences is tested on Linux.
final class DarwinEmulationTests: XCTestCase {
    func events(_ selector: any Selector) throws -> [UInt64: SelectorEvent] {
        var events: [UInt64: SelectorEvent] = [:]
        try selector.whenReady(timeoutMilliseconds: 100) { events[$0.token] = $0 }
        return events
    }

    func shutdownWrite(_ fd: Int32) {
        #if canImport(Glibc)
            shutdown(fd, Int32(SHUT_WR))
        #else
            shutdown(fd, SHUT_WR)
        #endif
    }

    func testThePeersFINIsAHangUpTogetherWithReadability() throws {
        let selector = try SelectorBackend.darwinEmulation.makeSelector()
        defer { selector.close() }
        let (mine, peer) = try RawSocket.connectedLoopbackPair()
        defer { close(mine); close(peer) }
        try selector.register(fd: mine, interest: [.readable, .writable], token: 1)
        var byte: UInt8 = 7
        XCTAssertEqual(write(peer, &byte, 1), 1)
        shutdownWrite(peer)
        let event = try XCTUnwrap(events(selector)[1])
        XCTAssertTrue(event.readable, "the byte is still there to read")
        XCTAssertTrue(event.hangup, "Darwin reports POLLHUP as soon as the FIN arrives")
        XCTAssertFalse(event.writable, "Darwin drops POLLOUT when it sets POLLHUP")
    }

    func testADescriptorRegisteredWithNoEventsReportsNothing() throws {
        let selector = try SelectorBackend.darwinEmulation.makeSelector()
        defer { selector.close() }
        let (mine, peer) = try RawSocket.connectedLoopbackPair()
        defer { close(mine) }
        try selector.register(fd: mine, interest: .readable, token: 1)
        try selector.reregister(fd: mine, interest: [], token: 1)
        close(peer)
        XCTAssertNil(try events(selector)[1], "no events asked for: not even a hang-up")
        try selector.reregister(fd: mine, interest: .readable, token: 1)
        XCTAssertEqual(try events(selector)[1]?.hangup, true)
        try selector.deregister(fd: mine)
    }

    func testLoopsUseAPipeWakerAndHalfMegabyteStacks() throws {
        XCTAssertTrue(SelectorBackend.darwinEmulation.usesPipeWaker)
        XCTAssertEqual(SelectorBackend.darwinEmulation.loopThreadStackSize, 512 * 1024)
        XCTAssertTrue(try Waker(pipe: true).isPipe)
        #if os(Linux)
            XCTAssertFalse(SelectorBackend.epoll.usesPipeWaker)
        #endif
        for backend in [SelectorBackend.platformDefault, .darwinEmulation] {
            let loop = try EventLoop(index: 0, backend: backend)
            try loop.start()
            defer { loop.stopAndJoin() }
            let measured = ConditionLock<Int?>(nil)
            loop.execute { measured.withLock { $0 = ThreadHandle.currentStackSize ?? -1 } }
            XCTAssertTrue(measured.wait(timeout: .seconds(10)) { $0 != nil })
            // glibc may hand a thread a cached stack up to a few times larger than asked for; never the
            // 8 MiB default, and never smaller.
            if let size = measured.withLock({ $0 }), size != -1 {
                XCTAssertGreaterThanOrEqual(size, backend.loopThreadStackSize, "\(backend)")
                XCTAssertLessThan(size, 8 * 1024 * 1024, "\(backend): an explicit size, not the default")
            }
        }
    }

    /// `STUBSERVER_EMULATE_DARWIN=1` (set by `.ci/run` for its emulation pass) switches every server's default.
    func testTheEnvironmentVariableSelectsTheEmulation() {
        let requested = ProcessInfo.processInfo.environment[DarwinEmulation.environmentVariable] == "1"
        XCTAssertEqual(DarwinEmulation.isRequested, requested)
        #if os(Linux)
            XCTAssertEqual(SelectorBackend.platformDefault, requested ? .darwinEmulation : .epoll)
            XCTAssertEqual(HTTPServerConfiguration().selectorBackend, SelectorBackend.platformDefault)
        #endif
    }
}
