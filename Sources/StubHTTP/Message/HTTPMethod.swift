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
