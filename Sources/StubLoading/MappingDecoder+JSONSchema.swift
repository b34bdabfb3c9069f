import StubMatching
import StubModel

/// Decoding of `matchesJsonSchema` (WireMock 3).
extension MappingDecoder.Run {
    /// `{"matchesJsonSchema": "{…}", "schemaVersion": "V7"}`: the schema as a JSON string (WireMock's form) or
    /// inline, checked now so a bad schema is a load error naming its keyword.
    func decodeJSONSchema(_ value: JSONValue, in json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> StringMatcher
    {
        let operandPath = path.key("matchesJsonSchema")
        var schema = value
        if case .string(let text) = value {
            do {
                schema = try JSONParser.parse(text)
            } catch {
                throw failure(operandPath, "the string is not valid JSON: \(error)")
            }
        }
        var version = JSONSchemaVersion.v202012
        if let name = json["schemaVersion"] {
            let text = try string(name, at: path.key("schemaVersion"))
            guard let known = JSONSchemaVersion(rawValue: text) else {
                let names = JSONSchemaVersion.allCases.map(\.rawValue).joined(separator: ", ")
                throw failure(path.key("schemaVersion"), "expected one of \(names), found \"\(text)\"")
            }
            version = known
        }
        let matcher = StringMatcher.matchesJsonSchema(schema, version: version)
        if let error = compiled.compile(matcher).compileFailure {
            throw failure(operandPath, error.description)
        }
        return matcher
    }
}
