import StubHTTP
import StubModel

/// Stops forwarding loops at once: `--proxy-all` or a `proxyBaseUrl` pointing at this server itself,
/// two servers forwarding to each other, a recording of itself.
///
/// Every request this server forwards carries `Via: 1.1 stubserver-<instance id>` (RFC 9110 §7.6.3; a
/// `Via` the client sent is passed on, ours added after it). A request about to be forwarded that
/// already carries this server's own marker has come round: it gets `508 Loop Detected` instead of
/// another trip. Chains of different servers are cut as well, after ``maxHops`` stubserver hops.
package struct ProxyLoopGuard: Sendable {
    /// The most stubserver hops a forwarded request may already have made; one with more gets a 508.
    static let maxHops = 8
    /// The field set on every loop answer (its value is ``marker``), so that a recording or a server
    /// further back can tell a loop answer from an upstream's.
    static let loopHeader = "X-Stubserver-Loop"
    static let markerPrefix = "stubserver-"

    /// `stubserver-<16 hex digits>`: this server instance's name in `Via`, random per server.
    let marker: String

    init() {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        marker = Self.markerPrefix + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The `Via` entry added to forwarded requests.
    package var viaEntry: String { "1.1 \(marker)" }

    /// Why forwarding `request` again would loop, or `nil` if it may go.
    package func loop(in request: StubHTTPRequest) -> String? {
        var hops = 0
        for field in request.headers where StubHTTPHeaders.equalsIgnoringCase(field.name, "Via") {
            for entry in field.value.split(separator: ",") {
                // `1.1 name` or `HTTP/1.1 name (comment)`: the name is the second word.
                let words = entry.split(separator: " ", omittingEmptySubsequences: true)
                guard words.count >= 2, words[1].hasPrefix(Self.markerPrefix) else { continue }
                if words[1] == marker { return "it already passed through this server (Via: \(marker))" }
                hops += 1
            }
        }
        return hops >= Self.maxHops
            ? "it already passed through \(hops) stubserver proxies (at most \(Self.maxHops))" : nil
    }

    /// The `508 Loop Detected` answer for `request`, naming what would have forwarded it and where.
    package func loopResponse(for request: StubHTTPRequest, upstreamURL: String, forwarder: String, reason: String)
        -> HTTPResponse
    {
        let text =
            "stubserver: proxy loop: \(request.method) \(request.pathAndQuery) would be forwarded to \(upstreamURL) "
            + "by \(forwarder), but \(reason); answering 508 instead of forwarding it again. Point the proxy at "
            + "the real upstream, not at this server or a server that forwards back to it.\n"
        return HTTPResponse(
            status: StubHTTPStatus(code: 508),
            headers: ["Content-Type": "text/plain; charset=utf-8", Self.loopHeader: marker],
            body: Array(text.utf8))
    }

    /// Whether `response` is a stubserver's loop answer (ours or another's): never recorded.
    package static func isLoopAnswer(_ response: HTTPResponse) -> Bool {
        response.status.code == 508 && response.headers.contains(name: loopHeader)
    }
}
