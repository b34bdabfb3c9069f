#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Bridges `Codable` models and ``JSONValue``, so stubs and assertions can use the app's own types.
///
/// ```swift
/// let body = try JSONValue(encoding: GitHubUser(login: "octocat", id: 1))
/// server.stub(.get("/users/octocat"), .json(GitHubUser(login: "octocat", id: 1)))
/// ```
extension JSONValue {
    /// An encoder writing keys sorted, so a stub's body does not change from run to run.
    public static func sortedKeysEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// The JSON that `encoder` writes for `value`.
    /// - Parameters:
    ///   - value: what is encoded.
    ///   - encoder: Default: a `JSONEncoder` with `.sortedKeys`; pass yours for its date or
    ///     key strategies.
    /// - Throws: ``JSONEncodingError`` when `encoder` fails (e.g. a `Double.nan` without a
    ///   non-conforming float strategy).
    public init(encoding value: some Encodable, encoder: JSONEncoder = JSONValue.sortedKeysEncoder())
        throws(JSONEncodingError)
    {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw JSONEncodingError(typeName: String(describing: type(of: value)), reason: "\(error)")
        }
        do {
            self = try JSONParser.parse([UInt8](data))
        } catch {
            throw JSONEncodingError(typeName: String(describing: type(of: value)), reason: "\(error)")
        }
    }

    /// Decodes this JSON into `type` with `decoder`.
    /// - Throws: the decoder's `DecodingError`.
    public func decode<Value: Decodable>(
        as type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder()
    ) throws -> Value {
        try decoder.decode(type, from: Data(serializedBytes()))
    }
}

/// A value could not be encoded as JSON (see ``JSONValue/init(encoding:encoder:)``).
public struct JSONEncodingError: Error, Sendable, CustomStringConvertible {
    /// The Swift type that was being encoded.
    public let typeName: String
    /// What the encoder said.
    public let reason: String

    public var description: String { "cannot encode \(typeName) as JSON: \(reason)" }
}
