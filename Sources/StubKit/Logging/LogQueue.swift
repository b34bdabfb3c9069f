import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state behind a ``LogSink``: pending text bounded in bytes, drop counts, and the drain thread.
/// Every field is reached under `condition`'s lock.
final class LogQueue: @unchecked Sendable {
    private let destination: LogSink.Destination
    private let capacity: Int
    private let condition = ThreadCondition()
    private var pending: [String] = []
    /// Bytes pending plus bytes being written right now.
    private var queuedBytes = 0
    private var droppedSinceNotice = 0
    private var droppedTotal = 0
    private var drainerRunning = false
    private var writing = false
    /// The destination failed for good (a closed pipe): lines are dropped without trying.
    private var failed = false

    /// How long an idle drain thread waits for more before ending.
    private static let idleLinger: Duration = .seconds(1)

    init(destination: LogSink.Destination, capacity: Int) {
        self.destination = destination
        self.capacity = capacity
    }

    func enqueue(_ text: String) {
        let size = text.utf8.count
        condition.lock()
        defer { condition.unlock() }
        guard queuedBytes + size <= capacity, !failed else {
            let lines = Self.lineCount(text)
            if !failed { droppedSinceNotice += lines }
            droppedTotal += lines
            return
        }
        pending.append(text)
        queuedBytes += size
        if drainerRunning {
            condition.signal()
        } else {
            drainerRunning = true
            do {
                try ThreadHandle.spawn { [self] in drain() }.detach()
            } catch {
                // No thread for now: the lines stay queued (bounded) and the next enqueue tries again.
                drainerRunning = false
            }
        }
    }

    var hasRoom: Bool {
        condition.lock()
        defer { condition.unlock() }
        return queuedBytes < capacity
    }

    var totalDropped: Int {
        condition.lock()
        defer { condition.unlock() }
        return droppedTotal
    }

    func flush(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        condition.lock()
        defer { condition.unlock() }
        while !pending.isEmpty || writing || droppedSinceNotice > 0 {
            let remaining = deadline - ContinuousClock.now
            guard drainerRunning, remaining > .zero, condition.wait(timeout: remaining) else {
                return pending.isEmpty && !writing && droppedSinceNotice == 0
            }
        }
        return true
    }

    /// The drain thread: writes batches outside the lock until the queue stays empty for a while.
    private func drain() {
        Self.blockBrokenPipeSignal()
        condition.lock()
        while true {
            let batch: String
            var batchBytes = 0
            if !pending.isEmpty {
                batch = pending.joined()
                batchBytes = queuedBytes
                pending.removeAll(keepingCapacity: true)
            } else if droppedSinceNotice > 0 {
                batch =
                    "stubserver: \(groupedDigits(droppedSinceNotice)) log lines dropped (\(destinationName) not keeping up)\n"
                droppedSinceNotice = 0
            } else {
                condition.broadcast()  // flush() waiters: drained
                if condition.wait(timeout: Self.idleLinger) || !pending.isEmpty { continue }
                if droppedSinceNotice > 0 { continue }
                drainerRunning = false
                condition.broadcast()
                condition.unlock()
                return
            }
            writing = true
            condition.unlock()
            let lost = write(batch)
            condition.lock()
            writing = false
            queuedBytes -= batchBytes
            if let lost {
                droppedTotal += lost
                // Nowhere left to report drops: stop trying, and do not spin on notices.
                failed = true
                droppedSinceNotice = 0
            }
        }
    }

    /// Blocks `SIGPIPE` on the calling thread (the drain thread, ours), so a write to a pipe whose reader
    /// has gone fails with `EPIPE` instead of killing the process: a test runner whose stderr pipe was closed
    /// keeps running, and the sink stops logging. Pipes have no `MSG_NOSIGNAL`/`SO_NOSIGPIPE`, and ignoring
    /// `SIGPIPE` process-wide (`signal(SIGPIPE, SIG_IGN)`) would change the host process; a blocked signal
    /// stays pending on this thread only and is discarded when the thread ends.
    static func blockBrokenPipeSignal() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Writes `text` to the destination; returns `nil`, or how many lines were lost because the
    /// destination failed for good.
    private func write(_ text: String) -> Int? {
        switch destination {
        case let .handler(handler):
            handler(text)
            return nil
        case let .fileDescriptor(descriptor):
            var text = text
            return text.withUTF8 { bytes -> Int? in
                // Closed or failed for good: what is left is lost.
                let written = writeFully(descriptor, UnsafeRawBufferPointer(bytes))
                return written == bytes.count ? nil : Self.lineCount(UnsafeBufferPointer(rebasing: bytes[written...]))
            }
        }
    }

    private var destinationName: String {
        switch destination {
        case .fileDescriptor(2): "stderr"
        case .fileDescriptor(1): "stdout"
        case let .fileDescriptor(descriptor): "descriptor \(descriptor)"
        case .handler: "the log handler"
        }
    }

    private static func lineCount(_ text: String) -> Int {
        lineCount(text.utf8)
    }

    private static func lineCount<C: Collection<UInt8>>(_ bytes: C) -> Int {
        max(1, bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) })
    }
}
