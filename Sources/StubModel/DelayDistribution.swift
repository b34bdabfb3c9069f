#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A random delay before a response (WireMock's `delayDistribution`), drawn anew for every request.
///
/// ```json
/// "delayDistribution": {"type": "uniform", "lower": 200, "upper": 800}
/// "delayDistribution": {"type": "lognormal", "median": 90, "sigma": 0.1}
/// ```
public enum DelayDistribution: Sendable, Hashable {
    /// Every whole millisecond from `lower` to `upper` (inclusive) equally likely.
    case uniform(lower: Int, upper: Int)
    /// A log-normal distribution with `median` milliseconds and shape `sigma` (a long tail as `sigma` grows).
    case lognormal(median: Double, sigma: Double)
    /// Always `milliseconds` (`{"type": "fixed", "milliseconds": N}`).
    case fixed(milliseconds: Int)

    /// One delay, in milliseconds.
    public func sampleMilliseconds<R: RandomNumberGenerator>(using generator: inout R) -> Int {
        switch self {
        case let .uniform(lower, upper):
            return upper > lower ? Int.random(in: lower...upper, using: &generator) : lower
        case let .lognormal(median, sigma):
            // Box–Muller for one standard normal value.
            let u1 = Double.random(in: Double.ulpOfOne..<1, using: &generator)
            let u2 = Double.random(in: 0..<1, using: &generator)
            let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            let value = median * exp(sigma * normal)
            return value.isFinite ? Int(min(max(0, value.rounded()), Double(Int32.max))) : 0
        case .fixed(let milliseconds):
            return milliseconds
        }
    }

    /// The distribution as WireMock JSON.
    public var json: JSONValue {
        switch self {
        case let .uniform(lower, upper): ["type": "uniform", "lower": JSONValue(lower), "upper": JSONValue(upper)]
        case let .lognormal(median, sigma):
            ["type": "lognormal", "median": JSONValue(median), "sigma": JSONValue(sigma)]
        case let .fixed(milliseconds): ["type": "fixed", "milliseconds": JSONValue(milliseconds)]
        }
    }
}

/// A body sent in pieces spread over time (WireMock's `chunkedDribbleDelay`): the headers at once,
/// then `numberOfChunks` parts of the body, `totalDuration / numberOfChunks` milliseconds apart.
public struct ChunkedDribbleDelay: Sendable, Hashable {
    /// At least 1.
    public var numberOfChunks: Int
    /// Milliseconds from the first chunk to the end.
    public var totalDuration: Int

    public init(numberOfChunks: Int, totalDuration: Int) {
        self.numberOfChunks = numberOfChunks
        self.totalDuration = totalDuration
    }

    /// As WireMock JSON.
    public var json: JSONValue {
        ["numberOfChunks": JSONValue(numberOfChunks), "totalDuration": JSONValue(totalDuration)]
    }
}
