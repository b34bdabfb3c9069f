import Foundation

/// Runs CPU-heavy test work on a thread of its own, so that it does not hold one of Swift's few
/// cooperative threads (as many as cores): parallel async tests, and the URLSession callbacks and
/// timeouts they await, need those threads meanwhile. Return what to assert; `#expect` on the caller's
/// side, where the test's task-locals are.
func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// What a randomized cross-check against a linear scan found.
struct CrossCheckOutcome: Sendable {
    /// One line per request the table answered differently from the scan.
    var mismatches: [String] = []
    /// Requests some stub matched.
    var matched = 0
}
