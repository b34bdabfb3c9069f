/// A response body made piece by piece while the client reads it, so a big body is never held whole.
///
/// The engine asks for the next piece only when fewer than ``HTTPBodyStreaming/lowWater`` bytes of the
/// response wait in the connection, through the ``HTTPBodyExecutor`` the response was started with (never on
/// an event-loop thread) and never twice at once. A client that stops reading stops the asking; one that
/// leaves, or a server that stops, ends it with ``cancel()``.
///
/// ```swift
/// final class Numbers: HTTPBodySource, @unchecked Sendable {  // `next` calls never overlap
///     private var line = 0
///     func next(maxBytes: Int) -> [UInt8]? {
///         guard line < 1_000_000 else { return nil }
///         line += 1
///         return Array("\(line)\n".utf8)
///     }
///     func cancel() {}
/// }
/// responder.respond(.pulled(.text(""), contentLength: nil, from: Numbers(), on: executor))
/// ```
public protocol HTTPBodySource: AnyObject, Sendable {
    /// The next bytes of the body: at most `maxBytes` (the room left under the connection's bound, at
    /// least 1), or `nil` at the end. An empty array asks to be called again. More than `maxBytes` is a
    /// contract violation: the engine closes the connection rather than queue them.
    func next(maxBytes: Int) -> [UInt8]?

    /// The response will not be completed (the client left, the server stopped, the executor refused):
    /// release what the body holds. Called once, on the event loop, possibly while a `next` call runs.
    func cancel()
}

/// Runs a streamed body's ``HTTPBodySource/next(maxBytes:)`` calls off the event loop, e.g. on a worker pool.
///
/// ```swift
/// let executor = HTTPBodyExecutor { job in workers.submit(job) }
/// ```
public struct HTTPBodyExecutor: Sendable {
    private let submit: @Sendable (@escaping @Sendable () -> Void) -> Bool

    /// - Parameter submit: runs the job on some thread that may block, and returns `true`; or returns
    ///   `false` without running it (a full queue), which cancels the response and closes its connection.
    public init(_ submit: @escaping @Sendable (@escaping @Sendable () -> Void) -> Bool) {
        self.submit = submit
    }

    /// Runs `job` on the executor's thread; `false` if it refused it (it will not run).
    public func run(_ job: @escaping @Sendable () -> Void) -> Bool { submit(job) }
}

/// The bound on what a streamed body may queue in one connection.
public enum HTTPBodyStreaming {
    /// The most bytes of a streamed body waiting in one connection for the socket: 256 KiB.
    public static let highWater = 256 * 1024
    /// Below this many queued bytes the source is asked for more: 64 KiB.
    public static let lowWater = 64 * 1024
}
