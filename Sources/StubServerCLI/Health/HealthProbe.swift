#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `GET /__admin/health` over a plain socket, bounded by a timeout: what `stubserver health` and the
/// image's `HEALTHCHECK` run, so the image needs no shell and no curl. Healthy means an HTTP `200` status
/// line; WireMock 3 answers the same route the same way.
public enum HealthProbe {
    /// What the probe found.
    public enum Outcome: Sendable, Equatable {
        /// The server answered `200`.
        case healthy
        /// Why not: e.g. `connection refused`, `no answer within 2 s`, `HTTP 404`.
        case unhealthy(String)
    }

    /// The most bytes of the answer read: enough for the status line.
    static let maxAnswerBytes = 4096

    /// Probes `url`, spending at most `timeout` on resolving, connecting, sending and reading.
    public static func check(_ url: HealthURL, timeout: Duration) -> Outcome {
        let deadline = ContinuousClock.now + timeout
        let addresses: [ProbeAddress]
        switch ProbeAddress.resolve(host: url.host, port: url.port) {
        case let .success(found): addresses = found
        case let .failure(failure): return .unhealthy(failure.reason)
        }
        var lastFailure = "no address for \(url.host)"
        for address in addresses {
            switch ProbeSocket.connect(to: address, deadline: deadline) {
            case let .failure(failure):
                lastFailure = failure.reason
            case let .success(socket):
                defer { socket.close() }
                let request =
                    "GET \(url.path) HTTP/1.1\r\nHost: \(hostHeader(url))\r\n"
                    + "User-Agent: stubserver-health\r\nConnection: close\r\n\r\n"
                return evaluate(socket.exchange(Array(request.utf8), deadline: deadline, limit: maxAnswerBytes))
            }
        }
        return .unhealthy(lastFailure)
    }

    /// The status line of `answer`, judged.
    static func evaluate(_ answer: Result<[UInt8], ProbeFailure>) -> Outcome {
        switch answer {
        case let .failure(failure):
            return .unhealthy(failure.reason)
        case let .success(bytes):
            let head = bytes.prefix { $0 != 13 && $0 != 10 }
            let line = String(decoding: head, as: UTF8.self)
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                return .unhealthy(
                    bytes.isEmpty
                        ? "the connection closed without an answer"
                        : "not an HTTP answer: '\(line.prefix(80))'")
            }
            return status == 200 ? .healthy : .unhealthy("HTTP \(line.dropFirst(parts[0].count + 1))")
        }
    }

    private static func hostHeader(_ url: HealthURL) -> String {
        (url.host.contains(":") ? "[\(url.host)]" : url.host) + ":\(url.port)"
    }
}

/// Why a probe step failed, in words.
struct ProbeFailure: Error, Sendable {
    let reason: String

    init(_ reason: String) { self.reason = reason }

    /// `connect: connection refused`.
    static func errno(_ call: String, _ code: Int32) -> ProbeFailure {
        ProbeFailure("\(call): \(String(cString: strerror(code)).lowercased())")
    }
}
