import StubHTTP
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a recorded request body is matched: JSON with `equalToJson`, text with `equalTo`; binary
/// bodies are not matched on, and a body holding a secret is not written at all.
extension StubWriter {
    enum RequestBodyMatch {
        /// No body, a binary body, or body matching turned off.
        case none
        /// The matcher, and the text that tells bodies apart when merging duplicates.
        case matcher(StringMatcher, key: String)
        /// The body holds a secret (a form field or JSON member named like a secret query parameter).
        case secret(name: String)
    }

    func requestBodyMatcher(_ request: RecordedExchange.Request) -> RequestBodyMatch {
        guard options.matchRequestBodies, !request.body.isEmpty else { return .none }
        let contentType = request.headers.first(name: "Content-Type")?.lowercased() ?? ""
        if contentType.isEmpty || contentType.contains("json"), let value = Self.jsonDocument(request.body) {
            if let name = secretMember(in: value) { return .secret(name: name) }
            return .matcher(
                .equalToJson(value, ignoreArrayOrder: false, ignoreExtraElements: false), key: value.serialized())
        }
        guard let text = Self.text(request.body) else { return .none }
        if contentType.contains("x-www-form-urlencoded") {
            for pair in text.split(separator: "&") {
                let name = PercentDecoding.decode(pair.prefix { $0 != "=" }, plusAsSpace: true)
                if options.secrets.isSecretQueryParameter(name) { return .secret(name: name) }
            }
        }
        return .matcher(.equalTo(text, caseInsensitive: false), key: text)
    }

    /// The first object member, at any depth, named like a secret query parameter.
    private func secretMember(in value: JSONValue) -> String? {
        switch value {
        case .object(let members):
            for member in members {
                if options.secrets.isSecretQueryParameter(member.key) { return member.key }
                if let found = secretMember(in: member.value) { return found }
            }
            return nil
        case .array(let elements):
            return elements.lazy.compactMap { self.secretMember(in: $0) }.first
        case .null, .bool, .number, .string:
            return nil
        }
    }

    /// The body as a JSON object or array, or `nil` when it is not one (scalars are left as text).
    static func jsonDocument(_ bytes: [UInt8]) -> JSONValue? {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return nil
        }
        switch value {
        case .object, .array: return value
        case .null, .bool, .number, .string: return nil
        }
    }

    /// The body as text when it is UTF-8 without NUL bytes, else `nil` (binary).
    static func text(_ bytes: [UInt8]) -> String? {
        guard !bytes.contains(0), let text = String(bytes: bytes, encoding: .utf8) else { return nil }
        return text
    }
}
