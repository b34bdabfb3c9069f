/// The response half of a stub mapping (WireMock's `response` object).
public struct ResponseDefinition: Sendable, Hashable {
    /// Where the body comes from. File bodies are read when the stubs are loaded.
    public enum Body: Sendable, Hashable {
        case none
        /// `body`: text, sent as UTF-8.
        case text(String)
        /// `jsonBody`: serialized as compact JSON.
        case json(JSONValue)
        /// `base64Body`, decoded.
        case bytes([UInt8])
        /// `bodyFileName`: the name under `__files` and the bytes read from it.
        case file(name: String, bytes: [UInt8])
    }

    /// Default 200.
    public var status: Int
    /// Overrides the reason phrase.
    public var statusMessage: String?
    /// Headers in source order; a list value in JSON becomes several fields.
    public var headers: HTTPHeaders
    public var body: Body
    /// `fixedDelayMilliseconds`, if set.
    public var fixedDelayMilliseconds: Int?

    public init(status: Int = 200, statusMessage: String? = nil, headers: HTTPHeaders = [:], body: Body = .none,
                fixedDelayMilliseconds: Int? = nil) {
        self.status = status
        self.statusMessage = statusMessage
        self.headers = headers
        self.body = body
        self.fixedDelayMilliseconds = fixedDelayMilliseconds
    }
}
