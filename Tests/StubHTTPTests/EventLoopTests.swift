import Foundation
import XCTest
@testable import StubHTTP

/// Selector backends, the timer heap and the event loop, without HTTP.
final class EventLoopTests: XCTestCase {
    func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        return (fds[0], fds[1])
    }

    func checkSelector(_ backend: SelectorBackend) throws {
        let selector = try backend.makeSelector()
        defer { selector.close() }
        let (r, w) = makePipe()
        defer { close(r); close(w) }
        try selector.register(fd: r, interest: .readable, token: 7)
        try selector.register(fd: w, interest: .writable, token: 8)
        var events: [UInt64: SelectorEvent] = [:]
        try selector.whenReady(timeoutMilliseconds: 1000) { events[$0.token] = $0 }
        XCTAssertNil(events[7], "nothing to read yet")
        XCTAssertEqual(events[8]?.writable, true)

        var byte: UInt8 = 1
        XCTAssertEqual(write(w, &byte, 1), 1)
        try selector.reregister(fd: w, interest: [], token: 8)
        events = [:]
        try selector.whenReady(timeoutMilliseconds: 1000) { events[$0.token] = $0 }
        XCTAssertEqual(events[7]?.readable, true)
        XCTAssertNil(events[8])

        try selector.deregister(fd: r)
        events = [:]
        try selector.whenReady(timeoutMilliseconds: 0) { events[$0.token] = $0 }
        XCTAssertTrue(events.isEmpty)
        XCTAssertThrowsError(try selector.deregister(fd: r))
    }

    func testEpollSelector() throws { try checkSelector(.epoll) }
    func testPollSelector() throws { try checkSelector(.poll) }

    func testTimerHeapPopsInDeadlineThenInsertionOrder() {
        var heap = TimerHeap<Int>()
        for (value, deadline) in [(1, 50), (2, 10), (3, 30), (4, 10), (5, 40)] {
            heap.insert(value, at: Instant(nanoseconds: Int64(deadline)))
        }
        XCTAssertNil(heap.popExpired(now: Instant(nanoseconds: 5)))
        var popped: [Int] = []
        while let value = heap.popExpired(now: Instant(nanoseconds: 100)) { popped.append(value) }
        XCTAssertEqual(popped, [2, 4, 3, 5, 1])
        XCTAssertTrue(heap.isEmpty)
    }

    func checkLoop(_ backend: SelectorBackend) throws {
        let loop = try EventLoop(index: 0, backend: backend)
        try loop.start()
        XCTAssertFalse(loop.inEventLoop)
        let results = ConditionLock<[String]>([])
        loop.execute {
            XCTAssertTrue(loop.inEventLoop)
            loop.schedule(at: loop.now + .milliseconds(40)) { results.withLock { $0.append("late") } }
            loop.schedule(at: loop.now + .milliseconds(10)) { results.withLock { $0.append("early") } }
            results.withLock { $0.append("task") }
        }
        XCTAssertTrue(results.wait(timeout: .seconds(10)) { $0.count == 3 })
        XCTAssertEqual(results.withLock { $0 }, ["task", "early", "late"])
        loop.stopAndJoin()
        loop.execute { XCTFail("tasks after stop are dropped") }
    }

    func testEventLoopWithEpoll() throws { try checkLoop(.epoll) }
    func testEventLoopWithPoll() throws { try checkLoop(.poll) }

    func testManyThreadsCanExecuteOnTheLoop() throws {
        let loop = try EventLoop(index: 0)
        try loop.start()
        defer { loop.stopAndJoin() }
        let count = ConditionLock(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<1000 { loop.execute { count.withLock { $0 += 1 } } }
        }
        XCTAssertTrue(count.wait(timeout: .seconds(10)) { $0 == 4000 })
    }
}
