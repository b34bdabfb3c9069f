// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(Linux)
    import Foundation
    import StubTestSupport

    /// The CPU time a process has used, from `/proc/PID/stat` (every thread's, unlike `/proc/PID/schedstat`,
    /// which holds the main thread's alone). Linux only.
    enum ProcessCPU {
        /// User plus system CPU time of `pid`, in clock ticks (``ticksPerSecond`` a second).
        static func ticks(_ pid: Int32) throws -> Int {
            let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            // Fields after the command name, which is in parentheses and may hold spaces.
            guard let close = stat.lastIndex(of: ")") else { throw TestFailure("unreadable /proc/\(pid)/stat") }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
            guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
                throw TestFailure("unexpected /proc/\(pid)/stat: \(stat)")
            }
            return user + system
        }

        /// Clock ticks a second (`sysconf(_SC_CLK_TCK)`, 100 on Linux).
        static var ticksPerSecond: Int { Int(sysconf(Int32(_SC_CLK_TCK))) }

        /// Runs `body` and returns its result with the CPU time `pid` used meanwhile and the wall time it
        /// took, both in seconds.
        static func measure<T: Sendable>(_ pid: Int32, _ body: () async throws -> T) async throws -> (
            T, cpu: Double, wall: Double
        ) {
            let start = ContinuousClock.now
            let before = try ticks(pid)
            let result = try await body()
            let used = try ticks(pid) - before
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            return (result, Double(used) / Double(ticksPerSecond), Double(seconds) + Double(attoseconds) / 1e18)
        }
    }
#endif
