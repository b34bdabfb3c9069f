import Foundation

/// Work on a thread of its own, started before the initializer returns: unlike `async let` or a `Task`, whose body
/// waits for one of Swift's few cooperative threads (and a loaded `swift test` has kept both of this machine's busy
/// for over a minute), the work begins at once whatever the tests beside it are doing.
///
/// ```swift
/// let slow = ThreadRun { try LoopbackClient.request(port: port, "GET", "/slow") }   // sent now
/// …
/// let response = try await slow.value
/// ```
public final class ThreadRun<T: Sendable>: @unchecked Sendable {  // `state` is only touched under `lock`
    private let lock = NSLock()
    private var outcome: Result<T, any Error>?
    private var waiter: CheckedContinuation<Result<T, any Error>, Never>?

    public init(_ body: @escaping @Sendable () throws -> T) {
        let thread = Thread { [self] in
            let result = Result { try body() }
            let waiting = lock.withLock { () -> CheckedContinuation<Result<T, any Error>, Never>? in
                outcome = result
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume(returning: result)
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// What the work returned, or the error it threw, once it has finished.
    public var value: T {
        get async throws {
            let result = await withCheckedContinuation { continuation in
                let done = lock.withLock { () -> Result<T, any Error>? in
                    if let outcome { return outcome }
                    waiter = continuation
                    return nil
                }
                if let done { continuation.resume(returning: done) }
            }
            return try result.get()
        }
    }
}
