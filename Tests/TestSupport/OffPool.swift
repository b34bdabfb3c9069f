import Foundation

/// Runs blocking or CPU-heavy test code (raw sockets, waiting for curl, a long cross-check) on a thread of its
/// own, so that it does not hold one of Swift's few cooperative threads (as many as cores), which the server's
/// async closure stubs, URLSession's callbacks and other tests' tasks need meanwhile. Throws what `body` throws
/// (nothing, for a body that cannot throw). Return what to assert, and assert on the caller's side, where the
/// test's task-locals are.
public func offPool<T: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    let result: Result<T, Failure> = await withCheckedContinuation { continuation in
        let thread = Thread {
            continuation.resume(returning: Result { () throws(Failure) -> T in try body() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    return try result.get()
}
