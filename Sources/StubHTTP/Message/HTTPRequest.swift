/// A complete HTTP request as received: head, body and trailers.
///
/// The raw request target is kept exactly as sent; ``path`` and ``queryItems`` give the
/// percent-decoded views that matching usually wants.
public struct HTTPRequest: Sendable, Hashable {
    /// The method token.
    public var method: HTTPMethod
    /// The request target exactly as sent: origin-form (`/a?b`), absolute-form (`http://h/a`),
    /// or `*` (OPTIONS).
    public var target: String
    /// `HTTP/1.0` or `HTTP/1.1`.
    public var version: HTTPVersion
    /// Header fields in arrival order.
    public var headers: HTTPHeaders
    /// The body, de-chunked. Empty when there is none.
    public var body: [UInt8]
    /// Trailer fields sent after a chunked body, if any.
    public var trailers: HTTPHeaders
    /// The addresses of the connection the request arrived on; `nil` when it was not read from a socket.
    public var endpoints: HTTPEndpoints?

    public init(
        method: HTTPMethod,
        target: String,
        version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        trailers: HTTPHeaders = [:],
        endpoints: HTTPEndpoints? = nil
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.trailers = trailers
        self.endpoints = endpoints
    }

    /// Whether the connection may carry another request after this one (RFC 9112 §9.3):
    /// HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool {
        if headers.containsToken("close", in: "Connection") { return false }
        if version == .http1_1 { return true }
        return version == .http1_0 && headers.containsToken("keep-alive", in: "Connection")
    }
}

extension HTTPRequest {
    /// The path and query part of the target: the target itself in origin-form, the part after the
    /// authority in absolute-form (`/` if empty), and `*` for asterisk-form.
    public var pathAndQuery: Substring {
        let t = target[...]
        // Origin-form, nearly every request: one byte compare (`hasPrefix` compares Characters).
        if t.utf8.first == UInt8(ascii: "/") { return t }
        guard t != "*", let colon = t.firstIndex(of: ":") else { return t }
        let afterScheme = t[colon...]
        guard afterScheme.hasPrefix("://") else { return t }
        let afterAuthority = afterScheme.dropFirst(3)
        guard let slash = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = afterAuthority[slash...]
        return rest.hasPrefix("?") ? Substring("/" + rest) : rest
    }

    /// The path as sent (still percent-encoded), without the query.
    public var rawPath: Substring {
        let pq = pathAndQuery
        if let q = pq.firstIndex(of: "?") { return pq[..<q] }
        return pq
    }

    /// The query as sent (still percent-encoded), without the `?`; `nil` if there is none.
    public var rawQuery: Substring? {
        let pq = pathAndQuery
        guard let q = pq.firstIndex(of: "?") else { return nil }
        return pq[pq.index(after: q)...]
    }

    /// The percent-decoded path. Invalid escapes are kept literally.
    public var path: String { PercentDecoding.decode(rawPath, plusAsSpace: false) }

    /// The query parameters in order, percent-decoded, with `+` read as a space.
    /// A parameter without `=` has an empty value.
    public var queryItems: [(name: String, value: String)] {
        guard let query = rawQuery, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let eq = pair.firstIndex(of: "=") {
                return (
                    PercentDecoding.decode(pair[..<eq], plusAsSpace: true),
                    PercentDecoding.decode(pair[pair.index(after: eq)...], plusAsSpace: true)
                )
            }
            return (PercentDecoding.decode(pair, plusAsSpace: true), "")
        }
    }

    /// All decoded values of the query parameter `name`, in order.
    public func queryValues(_ name: String) -> [String] {
        queryItems.filter { $0.name == name }.map(\.value)
    }
}

/// Percent-decoding of URL components (RFC 3986 §2.1).
public enum PercentDecoding {
    /// Decodes `%XX` escapes; a malformed escape is kept as written. Bytes that are not valid
    /// UTF-8 after decoding are replaced with U+FFFD.
    public static func decode<S: StringProtocol>(_ s: S, plusAsSpace: Bool) -> String {
        let utf8 = s.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(s)
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var i = utf8.startIndex
        while i != utf8.endIndex {
            let c = utf8[i]
            if c == UInt8(ascii: "%"),
                let h1 = utf8.index(i, offsetBy: 1, limitedBy: utf8.endIndex), h1 != utf8.endIndex,
                let h2 = utf8.index(h1, offsetBy: 1, limitedBy: utf8.endIndex), h2 != utf8.endIndex,
                let hi = hexValue(utf8[h1]), let lo = hexValue(utf8[h2])
            {
                out.append(hi << 4 | lo)
                i = utf8.index(after: h2)
                continue
            }
            out.append(plusAsSpace && c == UInt8(ascii: "+") ? UInt8(ascii: " ") : c)
            i = utf8.index(after: i)
        }
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
