import StubModel

/// Typed access to JSON values, each failure naming the path and what was found.
extension HARReader {
    func object(_ value: JSONValue, _ path: String) throws(HARError) -> JSONValue {
        guard case .object = value else { throw error(path, "expected an object, found \(kind(value))") }
        return value
    }

    func required(_ value: JSONValue?, _ path: String, _ member: String) throws(HARError) -> JSONValue {
        guard let value else { throw error(path, "missing '\(member)'") }
        return value
    }

    func string(_ value: JSONValue, _ path: String) throws(HARError) -> String {
        guard case .string(let text) = value else { throw error(path, "expected a string, found \(kind(value))") }
        return text
    }

    /// The string, or `nil` when absent or `null`.
    func optionalString(_ value: JSONValue?, _ path: String) throws(HARError) -> String? {
        guard let value, value != .null else { return nil }
        return try string(value, path)
    }

    func integer(_ value: JSONValue, _ path: String) throws(HARError) -> Int {
        guard case .number(let text) = value, let number = Int(text) else {
            throw error(path, "expected an integer, found \(kind(value))")
        }
        return number
    }

    /// How a value is described in messages: `"200"` for a string, `1.5`, `an array`, `null`.
    func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let text): text
        case .string(let text): JSONValue.escapedString(text.count > 40 ? String(text.prefix(40)) + "…" : text)
        case .array: "an array"
        case .object: "an object"
        }
    }
}
