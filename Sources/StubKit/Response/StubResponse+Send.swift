import StubHTTP

/// What a stub's response is sent with: its delay, its pacing (dribble, bandwidth, network profile) and how a
/// fault ends the connection, all carried out by timers on the event loop.
extension StubResponse {
    /// What WireMock sends for `MALFORMED_RESPONSE_CHUNK` and `RANDOM_DATA_THEN_CLOSE`: not a valid chunk
    /// size, not an HTTP status line.
    static let garbage = Array("lskdu018973t09sylgasjkfg1][]'./.sdlv".utf8)
    static let malformedChunk = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + garbage

    /// The delay for this request: the stub's fixed delay, a draw from its distribution, the global
    /// delay and the network's latency, added up; `nil` for none.
    func delay(network: NetworkProfile?, globalDelay: Duration?) -> Duration? {
        var total = delay ?? .zero
        if let delayDistribution {
            var generator = SystemRandomNumberGenerator()
            total += .milliseconds(delayDistribution.sampleMilliseconds(using: &generator))
        }
        if let globalDelay { total += globalDelay }
        if let network { total += network.latency }
        return total > .zero ? total : nil
    }

    /// How the engine ends the connection for `fault`.
    static func failure(for fault: ResponseFault) -> ConnectionFailure {
        switch fault {
        case .connectionReset: .reset
        case .emptyResponse: .closeWithoutResponse
        case .malformedResponseChunk: .rawBytesThenClose(malformedChunk)
        case .randomDataThenClose: .rawBytesThenClose(garbage)
        }
    }

    /// The dribble, else the lower of the stub's and the network's rate.
    func pacing(network: NetworkProfile?) -> WritePacing? {
        if let dribble {
            return .chunks(dribble.numberOfChunks, over: .milliseconds(dribble.totalDuration))
        }
        // Without building an array of the two: this runs for every response.
        switch (bytesPerSecond, network?.bytesPerSecond) {
        case (nil, nil): return nil
        case let (stub?, nil): return .bytesPerSecond(stub)
        case let (nil, network?): return .bytesPerSecond(network)
        case let (stub?, network?): return .bytesPerSecond(min(stub, network))
        }
    }
}
