/// A value being matched: its text (`nil` when absent) and, parsed on first use, its JSON.
///
/// Built once per request field, so a body is decoded and parsed at most once however many stubs
/// look at it. Not `Sendable`: it lives for one matching call on one thread.
final class MatchSubject {
    let text: String?
    private let bytes: [UInt8]?
    private var parsed: JSONValue??

    /// A text value (header, query parameter, cookie, URL).
    init(_ text: String?) {
        self.text = text
        bytes = nil
    }

    /// A body: empty means absent, as in WireMock (verified against 2.35.1: `equalTo ""` and
    /// `contains ""` do not match an empty body, `absent` does).
    init(body: [UInt8]) {
        text = body.isEmpty ? nil : String(decoding: body, as: UTF8.self)
        bytes = body.isEmpty ? nil : body
    }

    /// A JSON value picked out of a document, with the text string matchers should see.
    init(json: JSONValue, text: String) {
        self.text = text
        bytes = nil
        parsed = .some(json)
    }

    /// The value parsed as JSON, or `nil` if it is absent or not JSON.
    var json: JSONValue? {
        if let parsed { return parsed }
        var value: JSONValue?
        if let bytes {
            value = try? JSONParser.parse(bytes)
        } else if let text {
            value = try? JSONParser.parse(Array(text.utf8))
        }
        parsed = .some(value)
        return value
    }
}
