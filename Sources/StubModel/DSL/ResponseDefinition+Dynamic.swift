/// Delays, slow bodies and faults for a ``ResponseDefinition``.
///
/// ```swift
/// .json(feed).withDelay(uniform: 200...800)                   // delayDistribution uniform
/// .json(feed).withDelay(lognormalMedian: 90, sigma: 0.1)      // delayDistribution lognormal
/// .data(image).withChunkedDribble(chunks: 10, totalMilliseconds: 2_000)
/// .data(image).withBandwidth(bytesPerSecond: 30_000)          // a slow link for this stub
/// .fault(.connectionReset)                                    // fault
/// .hanging()                                                  // never answered: the client times out
/// ```
extension ResponseDefinition {
    /// A broken response instead of a real one (`fault`).
    public static func fault(_ fault: ResponseFault) -> ResponseDefinition {
        ResponseDefinition().withFault(fault)
    }

    /// Replaces the response with `fault`.
    public func withFault(_ fault: ResponseFault) -> ResponseDefinition {
        changing { $0.fault = fault }
    }

    /// A response that never comes: the request is read and journaled, then held (no thread waits) until
    /// the client gives up, as a server that hangs; the connection is freed when the client leaves, and
    /// closed when the server stops. In files, `"metadata": {"stubserver": {"hang": true}}`.
    public static func hanging() -> ResponseDefinition {
        ResponseDefinition().hanging()
    }

    /// This response never comes: see ``hanging()-type.method``.
    public func hanging() -> ResponseDefinition {
        changing { $0.hangs = true }
    }

    /// A random delay, every millisecond of `milliseconds` equally likely (`delayDistribution` uniform).
    public func withDelay(uniform milliseconds: ClosedRange<Int>) -> ResponseDefinition {
        withDelayDistribution(.uniform(lower: milliseconds.lowerBound, upper: milliseconds.upperBound))
    }

    /// A log-normal random delay around `median` milliseconds (`delayDistribution` lognormal).
    public func withDelay(lognormalMedian median: Double, sigma: Double) -> ResponseDefinition {
        withDelayDistribution(.lognormal(median: median, sigma: sigma))
    }

    /// A random delay drawn from `distribution` for every request (`delayDistribution`).
    public func withDelayDistribution(_ distribution: DelayDistribution) -> ResponseDefinition {
        changing { $0.delayDistribution = distribution }
    }

    /// The body in `chunks` parts spread over `totalMilliseconds` (`chunkedDribbleDelay`).
    public func withChunkedDribble(chunks: Int, totalMilliseconds: Int) -> ResponseDefinition {
        changing {
            $0.chunkedDribbleDelay = ChunkedDribbleDelay(numberOfChunks: chunks, totalDuration: totalMilliseconds)
        }
    }

    /// At most `bytesPerSecond` bytes per second on the wire for this response.
    public func withBandwidth(bytesPerSecond: Int) -> ResponseDefinition {
        changing { $0.bytesPerSecond = bytesPerSecond }
    }
}
