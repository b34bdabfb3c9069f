#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JSON body patterns from Swift values, as ``ResponseDefinition/json(_:status:)-(KeyValuePairs<String,any JSONRepresentable>,_)``
/// takes them for responses:
///
/// ```swift
/// .post("/repos").withJSONBody(["name": name, "private": false])   // variables in the literal
/// try .post("/repos").withJSONBody(encoding: NewRepo(name: name))  // an Encodable model
/// ```
extension RequestPattern {
    /// Requires the body to be JSON equal to the object `members` (`equalToJson`); values may be
    /// Swift values or ``JSONValue``s (see ``JSONRepresentable``).
    public func withJSONBody(
        _ members: KeyValuePairs<String, any JSONRepresentable>, ignoreArrayOrder: Bool = false,
        ignoreExtraElements: Bool = false
    ) -> RequestPattern {
        withJSONBody(JSONValue(members), ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements)
    }

    /// Requires the body to be JSON equal to what `encoder` writes for `value` (`equalToJson`).
    /// - Throws: ``JSONEncodingError`` if `value` cannot be encoded.
    public func withJSONBody(
        encoding value: some Encodable, encoder: JSONEncoder = JSONValue.sortedKeysEncoder(),
        ignoreArrayOrder: Bool = false,
        ignoreExtraElements: Bool = false
    ) throws(JSONEncodingError) -> RequestPattern {
        withJSONBody(
            try JSONValue(encoding: value, encoder: encoder), ignoreArrayOrder: ignoreArrayOrder,
            ignoreExtraElements: ignoreExtraElements)
    }
}
