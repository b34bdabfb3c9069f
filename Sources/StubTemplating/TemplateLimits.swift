import StubMatching

/// How much work one templated response may take: evaluation steps and rendered bytes. A render that
/// reaches either limit stops at once and the request is answered `500`, naming the stub and the limit.
///
/// The defaults are far above what a real template needs (a 1,000-item list with 50 tags per item is
/// about 50,000 steps and well under 1 MiB) and far below what hurts the server: 1,000,000 steps take
/// well under a second on one core, and a render past 256 KiB goes to a temporary file as it grows.
///
/// ```swift
/// var configuration = StubServer.Configuration()
/// configuration.templateLimits = TemplateLimits(maxSteps: 100_000, maxOutputBytes: 1 << 20)
/// ```
public struct TemplateLimits: Sendable, Hashable {
    /// The most evaluation steps of one response (`--template-max-steps`): one per tag, text run and
    /// `#each` iteration, one per element an `#each` walks, and one per 256 bytes a helper reads.
    /// Default 1,000,000.
    public var maxSteps: Int
    /// The most bytes one response's templates produce, headers and body together, counted as output
    /// grows (HTML escaping and JSON string escaping included) (`--template-max-output`). Default 16 MiB.
    public var maxOutputBytes: Int
    /// The largest text `jsonPath` parses as JSON (the request body, or a value), in bytes: the server's
    /// `Configuration.jsonMatchBodyLimit` (`--max-json-match-body`), which bounds JSON matchers too. A parsed
    /// document costs many times its size; past it the response is a `500` naming the limit.
    package var maxJSONBytes = MatchSubject.defaultJSONByteLimit

    /// - Parameters:
    ///   - maxSteps: at least 1. Default 1,000,000.
    ///   - maxOutputBytes: at least 1. Default 16 MiB.
    public init(maxSteps: Int = 1_000_000, maxOutputBytes: Int = 16 << 20) {
        self.maxSteps = max(1, maxSteps)
        self.maxOutputBytes = max(1, maxOutputBytes)
    }

    /// What a render may spend on an event loop before it is handed to a render thread: a few
    /// milliseconds of work at most, so a template never holds the loop that serves other clients.
    package static let onEventLoop = TemplateLimits(maxSteps: 20_000, maxOutputBytes: 1 << 20)

    /// Request bodies (and WebSocket messages) from this size on are never rendered on an event loop.
    package static let largestBodyRenderedOnLoop = 64 << 10

    /// The lower of each limit of `self` and `other`.
    package func capped(by other: TemplateLimits) -> TemplateLimits {
        var capped = TemplateLimits(
            maxSteps: min(maxSteps, other.maxSteps), maxOutputBytes: min(maxOutputBytes, other.maxOutputBytes))
        capped.maxJSONBytes = min(maxJSONBytes, other.maxJSONBytes)
        return capped
    }
}

/// A render stopped at a ``TemplateLimits`` limit.
public struct TemplateLimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which limit was reached.
    public enum Limit: Sendable, Hashable {
        /// ``TemplateLimits/maxSteps``.
        case steps(Int)
        /// ``TemplateLimits/maxOutputBytes``.
        case outputBytes(Int)
    }

    /// The limit reached, with its value.
    public let limit: Limit

    package init(limit: Limit) {
        self.limit = limit
    }

    /// E.g. `the template limit of 1000000 steps (--template-max-steps)`.
    public var description: String {
        switch limit {
        case let .steps(count):
            "the template limit of \(count) steps (--template-max-steps, TemplateLimits.maxSteps)"
        case let .outputBytes(count):
            "the template limit of \(count) output bytes (--template-max-output, TemplateLimits.maxOutputBytes)"
        }
    }
}

/// The budget of one response's render, shared by all its templates (headers, body, file name).
struct TemplateBudget {
    let limits: TemplateLimits
    private(set) var steps = 0
    private(set) var outputBytes = 0
    /// Set once a limit is reached; rendering then stops and produces nothing more.
    private(set) var exceeded: TemplateLimitExceeded?

    init(_ limits: TemplateLimits) { self.limits = limits }

    /// Spends `count` steps; `false` (and ``exceeded`` set) past the limit.
    @inline(__always)
    mutating func spend(steps count: Int) -> Bool {
        guard exceeded == nil else { return false }
        steps += count
        if steps > limits.maxSteps { exceeded = TemplateLimitExceeded(limit: .steps(limits.maxSteps)) }
        return exceeded == nil
    }

    /// Bytes that may still be produced.
    var remainingOutput: Int { exceeded == nil ? max(0, limits.maxOutputBytes - outputBytes) : 0 }

    /// Records `count` more output bytes; `false` (and ``exceeded`` set) past the limit.
    @discardableResult
    mutating func produce(bytes count: Int) -> Bool {
        guard exceeded == nil else { return false }
        outputBytes += count
        if outputBytes > limits.maxOutputBytes {
            exceeded = TemplateLimitExceeded(limit: .outputBytes(limits.maxOutputBytes))
        }
        return exceeded == nil
    }
}

extension TemplateLimitExceeded {
    /// Whether the limit reached is lower than the same limit in `limits`: the render may go on there.
    package func isBelow(_ limits: TemplateLimits) -> Bool {
        switch limit {
        case let .steps(count): count < limits.maxSteps
        case let .outputBytes(count): count < limits.maxOutputBytes
        }
    }
}
