#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A logged request's body as text, JSON or your own `Decodable` type, for assertions:
///
/// ```swift
/// let posted = try #require(server.requests(matching: .post("/repos")).last)
/// #expect(posted.bodyString == #"{"name":"x"}"#)
/// #expect(posted.jsonBody?["name"] == "x")
/// let repo = try posted.decodeBody(as: NewRepo.self)
/// ```
extension LoggedRequest {
    /// The body as UTF-8 text (`""` when there is none), or `nil` if it is not valid UTF-8.
    public var bodyString: String? {
        let text = String(decoding: request.body, as: UTF8.self)
        // Decoding replaces invalid bytes with U+FFFD, so a round trip tells valid UTF-8 apart.
        return text.utf8.elementsEqual(request.body) ? text : nil
    }

    /// The body parsed as JSON, or `nil` if it is empty or not JSON.
    public var jsonBody: JSONValue? {
        guard !request.body.isEmpty else { return nil }
        return try? JSONParser.parse(request.body)
    }

    /// The body decoded from JSON as `type` with `decoder`.
    /// - Throws: the decoder's `DecodingError`, which names the key or value at fault.
    public func decodeBody<Value: Decodable>(
        as type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder()
    ) throws -> Value {
        try decoder.decode(type, from: Data(request.body))
    }
}
