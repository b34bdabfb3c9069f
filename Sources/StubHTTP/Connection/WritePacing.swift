/// How fast a paced response goes out: its bytes are cut into slices written one per interval by
/// timers on the event loop (no thread sleeps), so a client sees a slow network or a dribbled body.
///
/// ```swift
/// responder.respond(PreparedResponse(.text(big)), pacing: .bytesPerSecond(30_000))      // a slow link
/// responder.respond(PreparedResponse(.text("abc")), pacing: .chunks(3, over: .seconds(1)))
/// ```
public struct WritePacing: Sendable, Hashable {
    private enum Slicing: Sendable, Hashable {
        case bytes(Int)
        case bodyChunks(Int)
    }

    private let slicing: Slicing
    /// Time between two slices.
    public let interval: Duration
    /// Whether the header block goes out at once with the first body slice (only the body is paced).
    public let headFirst: Bool

    /// Writes `sliceSize` bytes (at least 1) every `interval`, the header block included.
    public init(sliceSize: Int, interval: Duration) {
        self.init(.bytes(max(1, sliceSize)), interval: interval, headFirst: false)
    }

    private init(_ slicing: Slicing, interval: Duration, headFirst: Bool) {
        self.slicing = slicing
        self.interval = max(.zero, interval)
        self.headFirst = headFirst
    }

    /// At most `rate` bytes per second on the wire, head included: slices of about one TCP segment (or
    /// more for fast rates), every 10 to 100 ms.
    public static func bytesPerSecond(_ rate: Int) -> WritePacing {
        let rate = Int64(max(1, rate))
        // One segment (1460 bytes) per slice, but no more than 100 timer ticks a second nor fewer than 10.
        let intervalNanoseconds = min(100_000_000, max(10_000_000, 1460 * 1_000_000_000 / rate))
        let slice = max(1, Int(rate * intervalNanoseconds / 1_000_000_000))
        return WritePacing(sliceSize: slice, interval: .nanoseconds(intervalNanoseconds))
    }

    /// The head, then the body in `count` slices spread over `duration`: the first slice goes with the
    /// head, the last one `duration × (count − 1) / count` later (WireMock's `chunkedDribbleDelay`).
    public static func chunks(_ count: Int, over duration: Duration) -> WritePacing {
        let count = max(1, count)
        return WritePacing(.bodyChunks(count), interval: duration / count, headFirst: true)
    }

    /// The slice size for a body of `bodyCount` bytes.
    func sliceSize(bodyCount: Int) -> Int {
        switch slicing {
        case .bytes(let size): size
        case .bodyChunks(let count): max(1, (bodyCount + count - 1) / count)
        }
    }
}
