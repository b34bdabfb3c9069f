#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point on the monotonic clock, in nanoseconds. The engine's own time type, so that state
/// machines can be driven by made-up instants in tests.
struct Instant: Sendable, Hashable, Comparable, CustomStringConvertible {
    var nanoseconds: Int64

    init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The current monotonic time.
    static func now() -> Instant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Instant(nanoseconds: Int64(spec.tv_sec) &* 1_000_000_000 &+ Int64(spec.tv_nsec))
    }

    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    static func + (lhs: Instant, rhs: Duration) -> Instant {
        Instant(nanoseconds: lhs.nanoseconds &+ rhs.nanosecondsClamped)
    }

    /// Milliseconds from `self` until `later`, rounded up, at least 0, at most `Int32.max`.
    func milliseconds(until later: Instant) -> Int32 {
        let delta = later.nanoseconds - nanoseconds
        guard delta > 0 else { return 0 }
        return Int32(clamping: (delta + 999_999) / 1_000_000)
    }

    var description: String { "\(nanoseconds)ns" }
}

extension Duration {
    /// The duration in nanoseconds, clamped to `Int64`; negative durations count as 0.
    var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 0 }
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (sum, overflow2) = product.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow2 ? .max : max(0, sum)
    }

    /// `2 seconds`, `1 second`, `0.05 seconds`: a timeout in a message.
    package var inWords: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        return "\(Double(seconds) + Double(attoseconds) / 1e18) seconds"
    }
}
