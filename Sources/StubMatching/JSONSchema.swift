import StubModel

/// A JSON Schema (WireMock 3's `matchesJsonSchema`), checked when the stub loads and applied to bodies.
///
/// The core validation keywords of drafts 4, 6, 7, 2019-09 and 2020-12: `type`, `enum`, `const`,
/// `properties`, `patternProperties`, `additionalProperties`, `required`, `propertyNames`,
/// `minProperties`/`maxProperties`, `dependencies`/`dependentRequired`/`dependentSchemas`, `items` (a schema, or
/// a list before 2020-12), `prefixItems`, `additionalItems`, `contains` (`minContains`/`maxContains`),
/// `minItems`/`maxItems`, `uniqueItems`, `minLength`/`maxLength` (in code points), `pattern` (a search,
/// Java syntax), `minimum`/`maximum`, `exclusiveMinimum`/`exclusiveMaximum` (booleans in draft 4),
/// `multipleOf`, `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`, boolean schemas, and `$ref` to
/// `#`, `#/definitions/…`, `#/$defs/…` or any JSON pointer into the same schema. `format`, `title`,
/// `description`, `default`, `examples`, `nullable` and other annotations do not constrain.
///
/// A body that is not JSON is validated as a JSON string, as WireMock does. Validation is bounded: at
/// most ``maxDepth`` nested schemas and ``maxSteps`` keyword checks per body; past either it fails.
package struct JSONSchema: Sendable, Hashable {
    package typealias Version = JSONSchemaVersion

    static let maxDepth = 64
    static let maxSteps = 200_000

    let root: JSONValue
    let version: Version
    /// OpenAPI 3.0's dialect (draft 4 with `nullable`): a null is valid where `nullable: true`.
    let openAPI30: Bool
    /// The `pattern` and `patternProperties` regular expressions, compiled once, by source.
    let regexes: [String: CompiledRegex]
    /// What each `$ref` of the checked schemas names, resolved once: validation looks references up here instead
    /// of walking the document (whose objects are lists, searched member by member) on every request.
    let references: [String: JSONValue]
    /// The entry schemas by pointer (``violations(of:against:at:limit:)``).
    let entryNodes: [String: JSONValue]

    /// Checks `schema`: its keywords have the types the specification gives, its `$ref`s resolve and
    /// its patterns compile. The error names the JSON pointer of the faulty keyword.
    /// - Parameters:
    ///   - entries: JSON pointers of the schemas inside `schema` to check and validate with (an OpenAPI document
    ///     holds its schemas under `components` and operations); the whole of `schema` by default.
    ///   - openAPI30: OpenAPI 3.0's dialect: draft 4 (`version: .v4`) with `nullable`.
    package init(_ schema: JSONValue, version: Version = .v202012) throws(JSONSchemaError) {
        try self.init(schema, version: version, entries: [("", schema)])
    }

    /// - Parameters:
    ///   - entries: the schemas inside `schema` to check and validate with, by JSON pointer, with the node found
    ///     there (an OpenAPI document holds its schemas under `components` and operations).
    ///   - openAPI30: OpenAPI 3.0's dialect: draft 4 (`version: .v4`) with `nullable`.
    package init(
        _ schema: JSONValue, version: Version = .v202012, entries: [(pointer: String, node: JSONValue)],
        openAPI30: Bool = false
    ) throws(JSONSchemaError) {
        root = schema
        self.version = version
        self.openAPI30 = openAPI30
        var regexes: [String: CompiledRegex] = [:]
        var references: [String: JSONValue] = [:]
        var entryNodes: [String: JSONValue] = [:]
        var pending: [(JSONValue, String)] = []
        for (pointer, node) in entries {
            entryNodes[pointer] = node
            pending.append((node, pointer))
        }
        var visited = 0
        while let (node, pointer) = pending.popLast() {
            visited += 1
            guard visited <= 100_000 else {
                throw JSONSchemaError(pointer: pointer, message: "the schema is too large")
            }
            switch node {
            case .bool: continue
            case .object(let members):
                for (key, value) in members {
                    let at = pointer + "/" + JSONSchema.escape(key)
                    try Self.checkKeyword(key, value, at: at, root: schema, regexes: &regexes, references: &references)
                    for (child, childPointer) in Self.subschemas(of: key, value, at: at) {
                        pending.append((child, childPointer))
                    }
                }
            case .null, .number, .string, .array:
                throw JSONSchemaError(pointer: pointer, message: "a schema must be an object or a boolean")
            }
        }
        self.regexes = regexes
        self.references = references
        self.entryNodes = entryNodes
    }

    /// The entry schema at `pointer`, as given to ``init(_:version:entries:openAPI30:)``.
    package func node(at pointer: String) -> JSONValue? { entryNodes[pointer] }

    /// What `reference` names: from the references resolved when the schema was checked, else looked up.
    package func resolved(_ reference: String) -> JSONValue? {
        references[reference] ?? JSONSchema.resolve(reference, in: root)
    }

    package static func == (lhs: JSONSchema, rhs: JSONSchema) -> Bool {
        lhs.root == rhs.root && lhs.version == rhs.version && lhs.openAPI30 == rhs.openAPI30
            && lhs.entryNodes.keys.sorted() == rhs.entryNodes.keys.sorted()
    }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(root)
        hasher.combine(version)
    }

    private static let schemaMapKeywords: Set<String> = [
        "properties", "patternProperties", "definitions", "$defs", "dependentSchemas"
    ]
    private static let schemaKeywords: Set<String> = [
        "additionalProperties", "propertyNames", "not", "if", "then", "else", "contains", "additionalItems",
        "unevaluatedItems", "unevaluatedProperties"
    ]
    private static let schemaListKeywords: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]
    private static let counts: Set<String> = [
        "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains"
    ]

    /// The schemas inside keyword `key`, with their pointers.
    private static func subschemas(of key: String, _ value: JSONValue, at pointer: String) -> [(JSONValue, String)] {
        switch (key, value) {
        case (_, .object(let members)) where schemaMapKeywords.contains(key):
            return members.map { ($0.value, pointer + "/" + escape($0.key)) }
        case (_, _) where schemaKeywords.contains(key):
            return [(value, pointer)]
        case (_, .array(let list)) where schemaListKeywords.contains(key) || key == "items":
            return list.enumerated().map { ($0.element, pointer + "/\($0.offset)") }
        case ("items", _):
            return [(value, pointer)]
        case ("dependencies", .object(let members)):
            return members.filter { if case .array = $0.value { false } else { true } }
                .map { ($0.value, pointer + "/" + escape($0.key)) }
        default:
            return []
        }
    }

    private static func checkKeyword(
        _ key: String, _ value: JSONValue, at pointer: String, root: JSONValue, regexes: inout [String: CompiledRegex],
        references: inout [String: JSONValue]
    ) throws(JSONSchemaError) {
        func fail(_ message: String) -> JSONSchemaError { JSONSchemaError(pointer: pointer, message: message) }
        switch key {
        case "type":
            let names: [JSONValue]
            if case .array(let list) = value { names = list } else { names = [value] }
            for name in names {
                guard case .string(let text) = name, JSONSchema.typeNames.contains(text) else {
                    throw fail("expected one of \(JSONSchema.typeNames.joined(separator: ", ")), or a list of them")
                }
            }
        case _ where counts.contains(key):
            guard let number = value.doubleValue, number >= 0, number.rounded() == number else {
                throw fail("expected a non-negative integer")
            }
        case "minimum", "maximum", "multipleOf":
            guard let number = value.doubleValue, key != "multipleOf" || number > 0 else {
                throw fail(key == "multipleOf" ? "expected a number greater than 0" : "expected a number")
            }
        case "exclusiveMinimum", "exclusiveMaximum":
            if case .bool = value { return }
            guard value.doubleValue != nil else { throw fail("expected a number (a boolean in draft 4)") }
        case "required":
            guard case .array(let list) = value, list.allSatisfy({ if case .string = $0 { true } else { false } })
            else { throw fail("expected a list of property names") }
        case "enum":
            guard case .array = value else { throw fail("expected a list of values") }
        case "pattern":
            guard case .string(let pattern) = value else { throw fail("expected a regular expression") }
            try compile(pattern, at: pointer, into: &regexes)
        case "patternProperties":
            guard case .object(let members) = value else { throw fail("expected an object of schemas") }
            for (pattern, _) in members { try compile(pattern, at: pointer + "/" + escape(pattern), into: &regexes) }
        case "properties", "definitions", "$defs", "dependentSchemas", "dependencies", "dependentRequired":
            guard case .object = value else { throw fail("expected an object") }
        case "allOf", "anyOf", "oneOf", "prefixItems":
            guard case .array(let list) = value, !list.isEmpty else {
                throw fail("expected a non-empty list of schemas")
            }
        case "uniqueItems":
            guard case .bool = value else { throw fail("expected true or false") }
        case "$ref":
            guard case .string(let reference) = value else { throw fail("expected a reference") }
            if references[reference] != nil { return }
            guard let target = JSONSchema.resolve(reference, in: root) else {
                throw fail(
                    "only references into this schema are supported: \"#\", \"#/$defs/name\", \"#/definitions/name\"")
            }
            references[reference] = target
        default:
            return
        }
    }

    private static func compile(_ pattern: String, at pointer: String, into regexes: inout [String: CompiledRegex])
        throws(JSONSchemaError)
    {
        // A search, as JSON Schema means it: anywhere in the string.
        let regex = CompiledRegex("(?s).*?(?:" + pattern + ").*")
        if let error = regex.compileError {
            throw JSONSchemaError(pointer: pointer, message: "invalid regular expression: \(error)")
        }
        regexes[pattern] = regex
    }

    static let typeNames = ["null", "boolean", "object", "array", "number", "integer", "string"]

    /// `#`, `#/a/b~1c`: a JSON pointer into `root`.
    static func resolve(_ reference: String, in root: JSONValue) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var node = root
        let pointer = reference.dropFirst()
        guard !pointer.isEmpty else { return root }
        guard pointer.hasPrefix("/") else { return nil }
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = percentDecoded(raw).replacing("~1", with: "/").replacing("~0", with: "~")
            switch node {
            case .object: guard let next = node[token] else { return nil }; node = next
            case .array(let list):
                guard let index = Int(token), list.indices.contains(index) else { return nil }
                node = list[index]
            case .null, .bool, .number, .string: return nil
            }
        }
        return node
    }

    /// A URI fragment's `%XX` escapes decoded (`%25` is `%`, `%22` is `"`).
    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func escape(_ key: String) -> String {
        key.replacing("~", with: "~0").replacing("/", with: "~1")
    }
}

/// Why a schema cannot be used: the JSON pointer of the keyword and what is wrong.
package struct JSONSchemaError: Error, Sendable, CustomStringConvertible {
    package let pointer: String
    package let message: String
    package var description: String { "invalid JSON Schema at \"#\(pointer)\": \(message)" }
}
