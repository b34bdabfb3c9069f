#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a server's log lines go: a queue bounded in bytes in front of stderr (or another descriptor,
/// or a closure), written out by a thread of its own, so that logging never blocks the thread that logs.
///
/// A test harness that pipes stderr and never reads it fills the pipe after a few dozen kilobytes; from
/// then on every `write(2)` would block. With a `LogSink`, only its own thread waits: the queue fills up
/// to ``capacity`` bytes, further lines are dropped and counted, and once the queue drains one line
/// says how many were lost:
///
/// ```text
/// stubserver: 1,234 log lines dropped (stderr not keeping up)
/// ```
///
/// ```swift
/// var configuration = StubServer.Configuration()
/// configuration.log = LogSink(.handler { text in logger.info("\(text)") })   // runs on the sink's thread
/// ```
///
/// The thread starts with the first line and ends after a second without any, so an idle sink costs
/// nothing and a released one leaves nothing behind. A thread blocked on a full pipe never keeps the
/// process alive: call ``flush(timeout:)`` before exiting to give it a bounded chance to finish.
public final class LogSink: Sendable {
    /// Where the lines are written.
    public enum Destination: Sendable {
        /// A file descriptor, e.g. `2` for stderr. Written with `write(2)`; never closed.
        case fileDescriptor(Int32)
        /// A closure, called on the sink's thread with one or more whole lines (each ending in `\n`).
        case handler(@Sendable (String) -> Void)

        /// Standard error (descriptor 2).
        public static var standardError: Destination { .fileDescriptor(2) }
    }

    /// The default ``capacity``: 256 KiB.
    public static let defaultCapacity = 256 * 1024

    /// The most bytes queued (including those being written); lines beyond it are dropped and counted.
    public let capacity: Int
    private let queue: LogQueue

    /// - Parameters:
    ///   - destination: where lines go. Default: stderr.
    ///   - capacity: the queue's bound in bytes. Default ``defaultCapacity``.
    public init(_ destination: Destination = .standardError, capacity: Int = LogSink.defaultCapacity) {
        self.capacity = max(1, capacity)
        queue = LogQueue(destination: destination, capacity: self.capacity)
    }

    /// Queues `text` (one or more lines; a final newline is added if missing) and returns at once.
    /// If the queue is full the text is dropped and its lines counted.
    public func write(_ text: String) {
        queue.enqueue(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// Whether a line written now would be queued rather than dropped: lets a caller skip building
    /// an expensive line that could not be written anyway.
    public var hasRoom: Bool { queue.hasRoom }

    /// How many lines were dropped since the sink was created.
    public var droppedLineCount: Int { queue.totalDropped }

    /// Waits until everything queued (and the dropped-lines notice, if any) is written, at most `timeout`.
    /// - Returns: `true` if the queue drained, `false` if the destination was still blocked at the deadline.
    @discardableResult
    public func flush(timeout: Duration) -> Bool { queue.flush(timeout: timeout) }
}

/// `1,234,567`: a count with thousands separators, independent of the locale.
func groupedDigits(_ number: Int) -> String {
    let digits = Array(String(number.magnitude))
    var out = number < 0 ? "-" : ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(digit)
    }
    return out
}
