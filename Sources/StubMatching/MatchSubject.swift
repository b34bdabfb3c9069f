import StubModel
import StubXML

/// A value being matched: its text (`nil` when absent) and, parsed on first use, its JSON.
///
/// Built once per request field, so a body is decoded and parsed at most once however many stubs
/// look at it. Not `Sendable`: it lives for one matching call on one thread.
///
/// A body is decoded to text only when a text matcher asks, and parsed as JSON only when a JSON matcher
/// asks and it is at most ``jsonByteLimit`` bytes: a parsed document costs many times its size, so a
/// larger body is not parsed, and JSON matchers do not match it (``jsonSkippedReason`` says why).
package final class MatchSubject {
    /// The default ``jsonByteLimit``: 4 MiB.
    package static let defaultJSONByteLimit = 4 << 20

    private let body: [UInt8]?
    private var decoded: String??
    private var parsed: JSONValue??
    /// The body parsed as XML, or why not; `nil` until an XML matcher asks.
    private var parsedXML: Result<StubXML.XMLDocument, XMLParseError>?
    /// The largest body parsed as JSON.
    let jsonByteLimit: Int
    /// How many times this value was parsed as JSON: at most 1.
    private(set) var jsonParses = 0

    /// A text value (header, query parameter, cookie, URL).
    init(_ text: String?) {
        decoded = .some(text)
        body = nil
        jsonByteLimit = .max
    }

    /// A body: empty means absent, as in WireMock (verified against 2.35.1: `equalTo ""` and
    /// `contains ""` do not match an empty body, `absent` does).
    /// - Parameter jsonByteLimit: the largest body parsed as JSON; a larger one has no ``json``.
    init(body: [UInt8], jsonByteLimit: Int = MatchSubject.defaultJSONByteLimit) {
        self.body = body.isEmpty ? nil : body
        if body.isEmpty { decoded = .some(nil) }
        self.jsonByteLimit = jsonByteLimit
    }

    /// A JSON value picked out of a document, with the text string matchers should see.
    init(json: JSONValue, text: String) {
        decoded = .some(text)
        body = nil
        parsed = .some(json)
        jsonByteLimit = .max
    }

    /// Whether there is a value (a body: whether it is not empty), without decoding it.
    var isPresent: Bool {
        if body != nil { return true }
        return text != nil
    }

    /// The value's bytes, as received for a body or as UTF-8 for text; empty when absent (an empty body is
    /// absent).
    var bytes: [UInt8] {
        if let body { return body }
        return text.map { Array($0.utf8) } ?? []
    }

    /// The value as text, decoded from the body's UTF-8 on first use; `nil` when absent.
    var text: String? {
        if let decoded { return decoded }
        let value = body.map { String(decoding: $0, as: UTF8.self) }
        decoded = .some(value)
        return value
    }

    /// Why a present body was not parsed as JSON (it is over ``jsonByteLimit``), or `nil`.
    var jsonSkippedReason: String? {
        guard let body, body.count > jsonByteLimit else { return nil }
        return "the body (\(body.count) bytes) was not parsed as JSON: it is over the \(jsonByteLimit)-byte limit "
            + "for JSON matching (--max-json-match-body), so JSON matchers do not match it"
    }

    /// The value parsed as JSON, or `nil` if it is absent, not JSON, or a body over ``jsonByteLimit``.
    var json: JSONValue? {
        if let parsed { return parsed }
        var value: JSONValue?
        if let body {
            if body.count <= jsonByteLimit {
                jsonParses += 1
                value = try? JSONParser.parse(body)
            }
        } else if let text {
            jsonParses += 1
            value = try? JSONParser.parse(Array(text.utf8))
        }
        parsed = .some(value)
        return value
    }

    /// The value parsed as XML (at most ``jsonByteLimit`` bytes, the same bound as JSON), or `nil` if it is
    /// absent, not well-formed or too large (``xmlError`` says which).
    var xml: StubXML.XMLDocument? {
        if parsedXML == nil {
            guard let text else { return nil }
            let limit = min(jsonByteLimit, 64 << 20)
            do {
                parsedXML = .success(try StubXML.XMLDocument(parsing: text, limits: XMLLimits(maxBytes: limit)))
            } catch {
                parsedXML = .failure(error)
            }
        }
        if case .success(let document)? = parsedXML { return document }
        return nil
    }

    /// Why the value is not XML, once ``xml`` was asked for.
    var xmlError: String? {
        if case .failure(let error)? = parsedXML { return error.description }
        return nil
    }
}
