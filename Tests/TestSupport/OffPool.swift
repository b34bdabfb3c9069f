import Foundation

/// Runs blocking client code (raw sockets, waiting for curl) on a thread of its own, so that it does
/// not hold one of Swift's few cooperative threads, which the server's async closure stubs and other
/// tests need.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
