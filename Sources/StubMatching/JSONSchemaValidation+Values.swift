import StubModel

/// The value tests `JSONSchemaValidation` shares: types, equality, paths.
extension JSONSchemaValidation {
    /// The member names of an object (none for anything else).
    static func keys(_ value: JSONValue?) -> [String] {
        guard case .object(let members)? = value else { return [] }
        return members.map(\.key)
    }

    static func child(_ path: String, _ name: String) -> String {
        name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) && !name.isEmpty
            ? "\(path).\(name)" : "\(path)[\(JSONValue.string(name).serialized())]"
    }

    static func has(type: String, _ value: JSONValue) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("object", .object), ("array", .array), ("string", .string),
            ("number", .number):
            true
        case ("integer", .number(let text)): Double(text).map { $0.isFinite && $0.rounded() == $0 } ?? false
        default: false
        }
    }

    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: has(type: "integer", value) ? "integer" : "number"
        }
    }

    /// JSON equality with numbers compared by value (`1` equals `1.0`).
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): JSONEquivalence.numbersEqual(x, y)
        case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            x.count == y.count
                && x.allSatisfy { member in
                    y.contains {
                        $0.key.unicodeScalars.elementsEqual(member.key.unicodeScalars) && equal($0.value, member.value)
                    }
                }
        // By code points: Swift's `==` would equate "é" with "e" and a combining accent.
        case (.string(let x), .string(let y)): x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.null, _), (.bool, _), (.number, _), (.string, _), (.array, _), (.object, _): a == b
        }
    }
}
