import StubHTTP
import StubModel

/// One request to a plain-HTTP upstream, from connecting to the complete answer: driven by the
/// ``UpstreamPoller`` one ready event at a time, so that waiting costs nothing.
final class UpstreamExchange {
    /// How an exchange ended.
    enum Outcome {
        case answered(HTTPResponse)
        case failed(ProxyFailure.Kind)
    }

    private var socket: UpstreamSocket?
    /// Addresses not tried yet, should the current one refuse.
    private var addresses: [SocketAddress]
    private var connecting = true
    private let output: [UInt8]
    private var written = 0
    private var parser: UpstreamResponseParser
    /// The proxy timeout, and when it runs out for this exchange.
    let timeout: Duration
    let deadline: ContinuousClock.Instant
    let completion: @Sendable (Outcome) -> Void

    /// Starts connecting to the first address that takes a connection attempt.
    /// - Returns: `nil`, after calling `completion`, when none does.
    init?(
        addresses: [SocketAddress], request: [UInt8], isHeadRequest: Bool, maxBodyBytes: Int,
        timeout: Duration, completion: @escaping @Sendable (Outcome) -> Void
    ) {
        self.addresses = addresses
        output = request
        parser = UpstreamResponseParser(isHeadRequest: isHeadRequest, maxBodyBytes: maxBodyBytes)
        self.timeout = timeout
        deadline = .now + timeout
        self.completion = completion
        if let failure = connectNext(after: nil) {
            completion(.failed(failure))
            return nil
        }
    }

    /// The descriptor to poll and what for.
    var pollEvents: (fd: Int32, wantsWrite: Bool)? {
        socket.map { ($0.fd, connecting || written < output.count) }
    }

    /// Goes as far as the socket allows; the outcome once the exchange is over.
    /// - Parameter readBuffer: the poller's buffer, shared by every exchange (one thread drives them all).
    func advance(readable: Bool, writable: Bool, failed: Bool, readBuffer: inout [UInt8]) -> Outcome? {
        guard let socket else { return .failed(.unreachable("no connection")) }
        if connecting {
            guard writable || failed || readable else { return nil }
            let code = socket.connectionError()
            guard code == 0 else { return connectNext(after: code).map(Outcome.failed) }
            connecting = false
        }
        while written < output.count {
            switch socket.send(output[written...]) {
            case .done(let count): written += count
            case .wouldBlock: return nil
            case .failed(let code):
                return .failed(.unreachable("sending the request failed: \(UpstreamSocket.describe(code))"))
            }
        }
        guard readable || failed else { return nil }
        // A few reads per wake-up, so that one fast upstream cannot hold the others up.
        for _ in 0..<16 {
            switch socket.receive(into: &readBuffer) {
            case .wouldBlock:
                return nil
            case .failed(let code):
                return .failed(.unreachable("reading the answer failed: \(UpstreamSocket.describe(code))"))
            case .done(0):
                do throws(UpstreamResponseParser.Failure) {
                    try parser.finish()
                } catch {
                    return .failed(Self.kind(error))
                }
                return response()
            case .done(let count):
                do throws(UpstreamResponseParser.Failure) {
                    try parser.feed(readBuffer[..<count])
                } catch {
                    return .failed(Self.kind(error))
                }
                if parser.isComplete { return response() }
            }
        }
        return nil
    }

    /// Closes the connection (idempotent).
    func close() {
        socket?.close()
        socket = nil
    }

    /// Tries the next address; the failure when none is left.
    private func connectNext(after code: Int32?) -> ProxyFailure.Kind? {
        close()
        var last = code
        while !addresses.isEmpty {
            switch UpstreamSocket.connect(to: addresses.removeFirst()) {
            case .started(let socket):
                self.socket = socket
                connecting = true
                return nil
            case .failed(let code):
                last = code
            }
        }
        return .unreachable(last.map(UpstreamSocket.describe) ?? "no address to connect to")
    }

    private func response() -> Outcome {
        guard let status = parser.status else {
            return .failed(.unreachable("not a valid HTTP response: no status line"))
        }
        var headers = StubHTTPHeaders()
        for field in parser.headers where !ProxyDefinition.isHopByHop(field.name) {
            headers.add(name: field.name, value: field.value)
        }
        return .answered(HTTPResponse(status: status, headers: headers, body: parser.body))
    }

    private static func kind(_ failure: UpstreamResponseParser.Failure) -> ProxyFailure.Kind {
        switch failure {
        case .tooLarge(let limit): .tooLarge(limit)
        case .closedEarly(let detail): .unreachable(detail)
        case .malformed(let detail): .unreachable("not a valid HTTP response: \(detail)")
        }
    }
}
