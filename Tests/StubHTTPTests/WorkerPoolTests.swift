import Foundation
import StubHTTP
import Testing

/// The bounded pool that keeps admin calls (and other slow work) off the event loops.
struct WorkerPoolTests {
    /// A gate a job waits on until the test opens it.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func wait() { semaphore.wait() }
        func open(_ count: Int = 1) { for _ in 0..<count { semaphore.signal() } }
    }

    @Test("Every job runs, on at most threadLimit threads, never on the submitting thread")
    func runsEveryJob() {
        let pool = WorkerPool(name: "test", threadLimit: 3, queueLimit: 1_000)
        defer { pool.shutdown() }
        let done = DispatchGroup()
        let threads = LockedValue(Set<String>())
        let submitter = Thread.current.description
        for _ in 0..<200 {
            done.enter()
            #expect(
                pool.submit {
                    threads.withLock { _ = $0.insert(Thread.current.description) }
                    done.leave()
                })
        }
        done.wait()
        #expect(pool.startedThreads <= 3)
        #expect(!threads.withLock { $0.contains(submitter) })
    }

    @Test("Beyond the queue limit, jobs are refused; the queued ones still run")
    func boundedQueue() {
        let pool = WorkerPool(name: "test", threadLimit: 1, queueLimit: 2)
        defer { pool.shutdown() }
        let gate = Gate(), started = Gate()
        let ran = LockedValue(0)
        let done = DispatchGroup()
        done.enter()
        #expect(
            pool.submit {
                started.open(); gate.wait(); done.leave()
            })
        started.wait()  // the only thread is busy now
        for _ in 0..<2 {
            done.enter()
            #expect(
                pool.submit {
                    ran.withLock { $0 += 1 }; done.leave()
                })
        }
        #expect(!pool.submit { Issue.record("a job beyond the queue limit ran") })
        gate.open()
        done.wait()
        #expect(ran.withLock { $0 } == 2)
        #expect(pool.startedThreads == 1)
    }

    @Test("A slow job does not hold up the others while threads are free")
    func slowJobDoesNotBlockOthers() {
        let pool = WorkerPool(name: "test", threadLimit: 2, queueLimit: 0)
        defer { pool.shutdown() }
        let gate = Gate(), fast = Gate()
        let slowDone = DispatchGroup()
        slowDone.enter()
        #expect(
            pool.submit {
                gate.wait(); slowDone.leave()
            })
        #expect(pool.submit { fast.open() })
        fast.wait()  // ran while the slow job still waits
        gate.open()
        slowDone.wait()
    }

    @Test("After shutdown nothing is accepted; jobs queued before still run")
    func shutdownDrains() {
        let pool = WorkerPool(name: "test", threadLimit: 1, queueLimit: 4)
        let gate = Gate(), started = Gate()
        let done = DispatchGroup()
        done.enter()
        #expect(
            pool.submit {
                started.open(); gate.wait(); done.leave()
            })
        started.wait()
        done.enter()
        #expect(pool.submit { done.leave() })
        pool.shutdown()
        #expect(!pool.submit { Issue.record("ran after shutdown") })
        gate.open()
        done.wait()
    }
}
