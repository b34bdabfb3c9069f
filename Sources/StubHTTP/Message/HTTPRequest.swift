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

/// Percent-encoding of a URL path segment (RFC 3986 §3.3): every byte but a segment's own characters (`pchar`,
/// less `%`) as `%XX`, so the segment comes back whole from ``PercentDecoding/decode(_:plusAsSpace:)``.
package enum PercentEncoding {
    /// `segment` encoded: `a b/c` → `a%20b%2Fc`.
    package static func pathSegment(_ segment: String) -> String {
        var bytes: [UInt8] = []
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                bytes.append(byte)
            case _ where "-._~!$&'()*+,;=:@".utf8.contains(byte):
                bytes.append(byte)
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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

/// An HTTP request method. Any RFC 9110 token is a valid method; the common ones are constants.
///
/// ```swift
/// if request.method == .get { ... }
/// let purge = HTTPMethod("PURGE")
/// ```
public struct HTTPMethod: Sendable, Hashable, CustomStringConvertible {
    /// The method token exactly as sent, e.g. `"GET"`. Methods are case-sensitive.
    public let rawValue: String

    /// Creates a method from its token. The parser only produces valid tokens.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let get = HTTPMethod("GET")
    public static let head = HTTPMethod("HEAD")
    public static let post = HTTPMethod("POST")
    public static let put = HTTPMethod("PUT")
    public static let patch = HTTPMethod("PATCH")
    public static let delete = HTTPMethod("DELETE")
    public static let options = HTTPMethod("OPTIONS")
    public static let trace = HTTPMethod("TRACE")
    public static let connect = HTTPMethod("CONNECT")
}

/// The HTTP version of a request or response. The engine speaks HTTP/1.0 and HTTP/1.1.
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    public var description: String { "HTTP/\(major).\(minor)" }
}

/// An ordered list of header fields with case-insensitive lookup.
///
/// Names keep their original spelling and order, and duplicates are kept, as they arrived on the
/// wire. Lookup ignores ASCII case, as RFC 9110 requires.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add(name: "Set-Cookie", value: "a=1")
/// headers.add(name: "Set-Cookie", value: "b=2")
/// headers["set-cookie"]          // ["a=1", "b=2"]
/// headers.first(name: "content-type") // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    @usableFromInline var fields: [Field]

    /// Creates headers from `(name, value)` pairs, in order.
    public init(_ pairs: [(String, String)] = []) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The number of fields, counting duplicates.
    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name` (any case) and appends one with `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field named `name` (any case).
    public mutating func remove(name: String) {
        fields.removeAll { Self.equalsIgnoringCase($0.name, name) }
    }

    /// All values of the fields named `name` (any case), in order.
    public subscript(name: String) -> [String] {
        var result: [String] = []
        for field in fields where Self.equalsIgnoringCase(field.name, name) {
            result.append(field.value)
        }
        return result
    }

    /// The value of the first field named `name` (any case).
    public func first(name: String) -> String? {
        fields.first { Self.equalsIgnoringCase($0.name, name) }?.value
    }

    /// Whether a field named `name` (any case) is present.
    public func contains(name: String) -> Bool {
        fields.contains { Self.equalsIgnoringCase($0.name, name) }
    }

    /// Whether any comma-separated element of the fields named `name` equals `token`, ignoring case.
    /// Used for list headers such as `Connection: keep-alive, Upgrade`.
    public func containsToken(_ token: String, in name: String) -> Bool {
        for field in fields where Self.equalsIgnoringCase(field.name, name) {
            // Every request asks (`Connection: keep-alive`): bytes, without splitting into an array.
            if let found = Self.asciiList(field.value, containsToken: token) {
                if found { return true }
                continue
            }
            for element in field.value.split(separator: ",") {
                if Self.equalsIgnoringCase(element.trimmingSpaces(), token) { return true }
            }
        }
        return false
    }

    /// Whether the comma-separated `list` has an element equal to `token` (ASCII case-insensitive,
    /// spaces and tabs around it ignored), read as bytes; `nil` when `list` is not ASCII or has a
    /// carriage return, where elements end at Characters, not bytes.
    private static func asciiList(_ list: String, containsToken token: String) -> Bool? {
        let result = list.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x80, byte != UInt8(ascii: "\r") else { return nil }
                if byte == UInt8(ascii: ",") { start = index + 1; continue }
                guard index + 1 == bytes.count || bytes[index + 1] == UInt8(ascii: ",") else { continue }
                // `start...index` is one element.
                var lower = start, upper = index + 1
                while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") {
                    lower += 1
                }
                while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") {
                    upper -= 1
                }
                if equalsIgnoringCase(UnsafeBufferPointer(rebasing: bytes[lower..<upper]), token.utf8) { return true }
            }
            return false
        }
        return result ?? nil
    }

    /// ``equalsIgnoringCase(_:_:)`` on bytes.
    private static func equalsIgnoringCase(_ a: UnsafeBufferPointer<UInt8>, _ b: String.UTF8View) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            guard (x | 0x20) == (y | 0x20), (x | 0x20) >= UInt8(ascii: "a"), (x | 0x20) <= UInt8(ascii: "z") else {
                return false
            }
        }
        return true
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive comparison, without allocating.
    @inlinable
    public static func equalsIgnoringCase<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        let a = a.utf8, b = b.utf8
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            guard (x | 0x20) == (y | 0x20), (x | 0x20) >= UInt8(ascii: "a"), (x | 0x20) <= UInt8(ascii: "z") else {
                return false
            }
        }
        return true
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    @usableFromInline func trimmingSpaces() -> Substring {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
