import StubHTTP
import StubModel

/// Why a forwarded request got no answer from its upstream: a `502 Bad Gateway` or `504 Gateway
/// Timeout` whose plain-text body names the upstream URL and the reason.
public struct ProxyFailure: Error, Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        /// Not an `http` or `https` URL.
        case badURL
        /// Refused, reset, unknown host, TLS failure…: the system's message.
        case unreachable(String)
        /// No complete answer within the proxy timeout.
        case timedOut(Duration)
        /// The upstream's body went beyond the limit, in bytes.
        case tooLarge(Int)
        /// This build cannot forward (the `Slim` trait).
        case unavailable
    }

    let kind: Kind
    /// The URL the request was forwarded to.
    public let upstreamURL: String
    /// `GET /users/octocat`: the request as the client sent it.
    public let request: String

    /// 504 for a timeout, 502 otherwise.
    public var status: StubHTTPStatus {
        if case .timedOut = kind { return StubHTTPStatus(code: 504) }
        return StubHTTPStatus(code: 502)
    }

    public var description: String {
        let reason =
            switch kind {
            case .badURL: "not an http or https URL"
            case .unreachable(let message): message
            case .timedOut(let timeout):
                "no answer within \(timeout) (the proxy timeout; raise it with --proxy-timeout or Configuration.proxy.timeout)"
            case .tooLarge(let limit):
                "the response body is larger than \(limit) bytes (Configuration.proxy.maxResponseBytes)"
            case .unavailable: ProxySettings.unavailableReason
            }
        return "stubserver: proxying \(request) to \(upstreamURL) failed: \(reason)\n"
    }

    /// The answer sent to the client.
    package var response: HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(description.utf8))
    }
}
