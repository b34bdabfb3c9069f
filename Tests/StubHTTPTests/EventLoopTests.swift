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

    /// A descriptor deregistered as `closing` then closed is gone; its number can be registered again.
    func checkDeregisterBeforeClose(_ backend: SelectorBackend) throws {
        let selector = try backend.makeSelector()
        defer { selector.close() }
        let (r, w) = makePipe()
        var byte: UInt8 = 1
        XCTAssertEqual(write(w, &byte, 1), 1)
        try selector.register(fd: r, interest: .readable, token: 7)
        selector.deregister(fd: r, closing: true)
        close(r)
        close(w)
        var events: [UInt64: SelectorEvent] = [:]
        try selector.whenReady(timeoutMilliseconds: 0) { events[$0.token] = $0 }
        XCTAssertTrue(events.isEmpty, "a closed descriptor reports nothing")

        let (r2, w2) = makePipe()  // likely the same numbers again
        defer { close(r2); close(w2) }
        XCTAssertEqual(write(w2, &byte, 1), 1)
        try selector.register(fd: r2, interest: .readable, token: 9)
        try selector.whenReady(timeoutMilliseconds: 1000) { events[$0.token] = $0 }
        XCTAssertEqual(events.keys.sorted(), [9])
    }

    func testEpollForgetsClosedDescriptors() throws { try checkDeregisterBeforeClose(.epoll) }
    func testPollForgetsClosedDescriptors() throws { try checkDeregisterBeforeClose(.poll) }

    func testEpollSelector() throws { try checkSelector(.epoll) }
    func testPollSelector() throws { try checkSelector(.poll) }
    func testDarwinEmulationSelector() throws { try checkSelector(.darwinEmulation) }
    func testDarwinEmulationForgetsClosedDescriptors() throws { try checkDeregisterBeforeClose(.darwinEmulation) }

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

    func testTimerHeapMovesAndCancelsTimersThroughTheirHandles() {
        var heap = TimerHeap<String>()
        let a = heap.insert("a", at: Instant(nanoseconds: 10))
        let b = heap.insert("b", at: Instant(nanoseconds: 20))
        let c = heap.insert("c", at: Instant(nanoseconds: 30))
        XCTAssertEqual(heap.remove(b), "b")
        XCTAssertNil(heap.remove(b), "a removed timer is gone")
        XCTAssertNil(heap.deadline(of: b))
        XCTAssertTrue(heap.reschedule(c, to: Instant(nanoseconds: 5)))
        XCTAssertEqual(heap.deadline(of: c), Instant(nanoseconds: 5))
        XCTAssertTrue(heap.reschedule(a, to: Instant(nanoseconds: 50)))
        let d = heap.insert("d", at: Instant(nanoseconds: 40))  // reuses b's slot
        XCTAssertNil(heap.deadline(of: b), "a stale handle does not name the slot's new timer")
        XCTAssertFalse(heap.reschedule(b, to: Instant(nanoseconds: 1)))
        XCTAssertEqual(heap.count, 3)
        var popped: [String] = []
        while let value = heap.popExpired(now: Instant(nanoseconds: 100)) { popped.append(value) }
        XCTAssertEqual(popped, ["c", "d", "a"])
        XCTAssertNil(heap.deadline(of: d), "popped timers are gone too")
        XCTAssertFalse(heap.reschedule(a, to: Instant(nanoseconds: 1)))
    }

    func testTimerHeapMatchesASortedModelUnderRandomOperations() {
        var generator = SystemRandomNumberGenerator()
        var heap = TimerHeap<Int>()
        var model: [Int: (deadline: Int64, handle: TimerHeap<Int>.Handle)] = [:]
        var nextValue = 0
        for _ in 0..<5_000 {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0, 1:
                let deadline = Int64.random(in: 0..<1_000, using: &generator)
                model[nextValue] = (deadline, heap.insert(nextValue, at: Instant(nanoseconds: deadline)))
                nextValue += 1
            case 2:
                guard let (value, entry) = model.randomElement(using: &generator) else { continue }
                XCTAssertEqual(heap.remove(entry.handle), value)
                model[value] = nil
            default:
                guard let (value, entry) = model.randomElement(using: &generator) else { continue }
                let deadline = Int64.random(in: 0..<1_000, using: &generator)
                XCTAssertTrue(heap.reschedule(entry.handle, to: Instant(nanoseconds: deadline)))
                model[value]?.deadline = deadline
            }
            XCTAssertEqual(heap.count, model.count)
            XCTAssertEqual(heap.nextDeadline?.nanoseconds, model.values.map(\.deadline).min())
        }
        var last = Int64.min
        while let value = heap.popExpired(now: Instant(nanoseconds: .max)) {
            let deadline = model.removeValue(forKey: value)?.deadline ?? .min
            XCTAssertGreaterThanOrEqual(deadline, last, "popped in deadline order")
            last = deadline
        }
        XCTAssertTrue(model.isEmpty)
    }

    /// A channel that counts its timers.
    final class CountingChannel: EventLoopChannel, @unchecked Sendable {
        let fired = ConditionLock(0)
        func handle(_ event: SelectorEvent) {}
        func timerFired() { fired.withLock { $0 += 1 } }
        func shutdown(graceful: Bool) {}
    }

    func testDeregisteredChannelIsReleasedWithoutWaitingForItsTimer() throws {
        // Not started: the test thread plays the loop thread.
        let loop = try EventLoop(index: 0)
        defer { loop.stopAndJoin() }
        let (r, w) = makePipe()
        defer { close(r); close(w) }
        weak var released: CountingChannel?
        try {
            let channel = CountingChannel()
            released = channel
            let token = try loop.register(channel, fd: r, interest: .readable)
            loop.scheduleTimer(token: token, at: loop.now + .seconds(60))
            XCTAssertEqual(loop.timerCount, 1)
            loop.deregister(fd: r, token: token, closing: false)
        }()
        XCTAssertNil(released, "the loop keeps no reference to a deregistered channel, not even in its timers")
        XCTAssertEqual(loop.timerCount, 0)
        XCTAssertEqual(loop.channelCount, 0)
    }

    func testAChannelHasOneTimerHoweverOftenItRearms() throws {
        let loop = try EventLoop(index: 0)
        defer { loop.stopAndJoin() }
        let (r, w) = makePipe()
        defer { close(r); close(w) }
        let channel = CountingChannel()
        let token = try loop.register(channel, fd: r, interest: .readable)
        // A keep-alive connection pushing its idle deadline on with every request.
        for request in 0..<10_000 {
            loop.scheduleTimer(token: token, at: loop.now + .seconds(60) + .milliseconds(request))
        }
        XCTAssertEqual(loop.timerCount, 1)
        loop.scheduleTimer(token: token, at: loop.now + .seconds(1))
        XCTAssertEqual(loop.timerCount, 1, "an earlier deadline moves the one timer")
        loop.deregister(fd: r, token: token)
        XCTAssertEqual(loop.timerCount, 0)
    }

    func checkChannelTimer(_ backend: SelectorBackend) throws {
        let loop = try EventLoop(index: 0, backend: backend)
        try loop.start()
        defer { loop.stopAndJoin() }
        let (r, w) = makePipe()
        defer { close(r); close(w) }
        let channel = CountingChannel()
        let timers = ConditionLock<Int?>(nil)
        loop.execute {
            do {
                let token = try loop.register(channel, fd: r, interest: .readable)
                loop.scheduleTimer(token: token, at: loop.now + .seconds(60))
                loop.scheduleTimer(token: token, at: loop.now + .milliseconds(10))
                loop.schedule(at: loop.now + .milliseconds(30)) {
                    timers.withLock { $0 = loop.timerCount }
                    loop.deregister(fd: r, token: token)
                }
            } catch {
                XCTFail("register: \(error)")
                timers.withLock { $0 = -1 }
            }
        }
        XCTAssertTrue(timers.wait(timeout: .seconds(10)) { $0 != nil })
        XCTAssertEqual(channel.fired.withLock { $0 }, 1, "the earlier deadline fired, once")
        XCTAssertEqual(timers.withLock { $0 }, 0, "the fired timer left nothing behind")
    }

    func testChannelTimerWithEpoll() throws { try checkChannelTimer(.epoll) }
    func testChannelTimerWithPoll() throws { try checkChannelTimer(.poll) }
    func testChannelTimerWithDarwinEmulation() throws { try checkChannelTimer(.darwinEmulation) }

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
    func testEventLoopWithDarwinEmulation() throws { try checkLoop(.darwinEmulation) }

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
