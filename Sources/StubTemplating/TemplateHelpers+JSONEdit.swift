import StubMatching
import StubModel

/// WireMock 3's `toJson`, `formatJson`, `jsonMerge`, `jsonRemove` and `jsonArrayAdd`: they read JSON text
/// and write JSON text, compact as Jackson's `writeValueAsString` or pretty as its default printer, and
/// answer a wrong argument with WireMock 3's `[ERROR: …]` text.
extension TemplateEvaluator {
    @inline(never)
    mutating func jsonEditHelper(_ helper: JSONEditHelper, _ arguments: [TemplateValue], _ call: TemplateCall)
        -> TemplateValue
    {
        func option(_ name: String) -> TemplateValue? { call.option(name).map { evaluate($0) } }
        let subject = arguments.first ?? .missing
        switch helper {
        case .toJson:
            if case .missing = subject { return .string("") }
            var count = 0
            let json = Self.jacksonValue(subject, count: &count)
            guard budget.spend(steps: count) else { return .missing }
            return .string(JSONRendering.jacksonPretty(json))
        case .formatJson:
            return formatJSON(subject, format: option("format"))
        case .jsonMerge:
            return jsonMerge(arguments, removeNulls: option("removeNulls")?.isTrueOption ?? false)
        case .jsonRemove:
            return jsonRemove(arguments)
        case .jsonArrayAdd:
            return jsonArrayAdd(
                arguments, jsonPath: option("jsonPath"), flatten: option("flatten"), maxItems: option("maxItems"))
        }
    }

    /// `formatJson` over a JSON string (or a block's body), `format='pretty'` (the default) or `'compact'`.
    private mutating func formatJSON(_ subject: TemplateValue, format: TemplateValue?) -> TemplateValue {
        let body = subject.javaStringValue.map { TemplateEscaping.javaTrim($0) } ?? ""
        guard !body.isEmpty else {
            return .string(
                "[ERROR: formatJson should take a block of JSON to format or a single parameter of type String]")
        }
        let pretty: Bool
        switch format {
        case nil: pretty = true
        case let value? where value.javaStringValue != nil:
            let name = value.javaStringValue ?? ""
            guard name == "pretty" || name == "compact" else {
                return .string("[ERROR: formatJson: format [\(name)] should be one of [pretty, compact]]")
            }
            pretty = name == "pretty"
        case let value?:
            return .string(
                "[ERROR: formatJson: format [\(value.text)] of type [\(value.javaTypeName) should be a Format or a "
                    + "String and one of [pretty, compact]]]")
        }
        guard let json = readJSON(body, helper: "formatJson") else {
            if failure != nil { return .missing }
            return .string("[ERROR: There was an error parsing the json. Please make sure the json is valid]")
        }
        return output(pretty ? JSONRendering.jacksonPretty(json) : JSONRendering.javaCompact(json))
    }

    /// `jsonMerge base other [removeNulls=true]`: `other`'s members replace `base`'s, objects merged
    /// member by member; with `removeNulls`, a `null` in `other` removes the member.
    private mutating func jsonMerge(_ arguments: [TemplateValue], removeNulls: Bool) -> TemplateValue {
        guard let baseText = arguments.first?.javaStringValue else {
            return .string("[ERROR: Base JSON parameter must be a string]")
        }
        guard let base = readJSON(baseText, helper: "jsonMerge") else {
            return failure != nil ? .missing : .string("[ERROR: Base JSON is not valid JSON ('\(baseText)')]")
        }
        guard case let .object(baseMembers) = base else {
            return .string("[ERROR: Base JSON is not a JSON object ('\(baseText)')]")
        }
        guard let otherText = (arguments.count > 1 ? arguments[1] : .missing).javaStringValue else {
            return .string("[ERROR: JSON to merge must be a string]")
        }
        guard let other = readJSON(otherText, helper: "jsonMerge") else {
            return failure != nil ? .missing : .string("[ERROR: JSON to merge is not valid JSON ('\(otherText)')]")
        }
        guard case let .object(otherMembers) = other else {
            return .string("[ERROR: JSON to merge is not a JSON object ('\(otherText)')]")
        }
        let merged = Self.merge(baseMembers, otherMembers, removeNulls: removeNulls)
        return output(JSONRendering.javaCompact(.object(merged)))
    }

    /// Jackson's `ObjectNode.replace` / `remove`, recursively for objects in both.
    private static func merge(
        _ base: [(key: String, value: JSONValue)], _ other: [(key: String, value: JSONValue)], removeNulls: Bool
    ) -> [(key: String, value: JSONValue)] {
        var result = base
        for (key, value) in other {
            let index = result.firstIndex { $0.key == key }
            switch (value, index.map { result[$0].value }) {
            case let (.object(inner), .object(existing)?):
                if let index { result[index].value = .object(merge(existing, inner, removeNulls: removeNulls)) }
            case (.null, _) where removeNulls:
                if let index { result.remove(at: index) }
            case (.null, _), (.bool, _), (.number, _), (.string, _), (.array, _), (.object, _):
                if let index { result[index].value = value } else { result.append((key, value)) }
            }
        }
        return result
    }

    /// `jsonRemove json '$.path'`: the JSON without what the path selects; the input as it was when the
    /// path selects nothing.
    private mutating func jsonRemove(_ arguments: [TemplateValue]) -> TemplateValue {
        guard let input = arguments.first?.javaStringValue else {
            return .string("[ERROR: Input JSON must be a string]")
        }
        if input == "null" { return .string(input) }
        guard arguments.count == 2 else {
            return .string("[ERROR: A single JSONPath expression parameter must be supplied]")
        }
        guard let pathText = arguments[1].javaStringValue else {
            return .string("[ERROR: JSONPath parameter must be a string]")
        }
        guard let document = readJSON(input, helper: "jsonRemove") else {
            return failure != nil ? .missing : .string("[ERROR: Input JSON string is not valid JSON ('\(input)')]")
        }
        guard !pathText.isEmpty, let path = try? JSONPathExpression(pathText) else {
            return .string("[ERROR: JSONPath parameter is not a valid JSONPath expression ('\(pathText)')]")
        }
        do {
            let work = JSONPathWork.budget(forLength: input.utf8.count)
            let (result, removed) = try JSONPathEditing.deleting(path, from: document, budget: work)
            guard budget.spend(steps: removed) else { return .missing }
            if removed == 0, path.isDefinite { return .string(input) }
            return output(JSONRendering.javaCompact(result))
        } catch .notDeletable {
            return .string("[ERROR: Delete operation cannot be applied to JSONPath expression ('\(pathText)')]")
        } catch {
            return fail("jsonRemove: \(pathText.prefix(120)) gave up (filters and deep scans nested in each other)")
        }
    }

    /// `jsonArrayAdd array item [flatten=true] [maxItems=N] [jsonPath='$.list']`: the array (or the one a
    /// definite path names) with the item added, keeping the last `maxItems`.
    private mutating func jsonArrayAdd(
        _ arguments: [TemplateValue], jsonPath: TemplateValue?, flatten: TemplateValue?, maxItems: TemplateValue?
    ) -> TemplateValue {
        guard let input = arguments.first?.javaStringValue else {
            return .string("[ERROR: Base JSON must be a string]")
        }
        guard let root = readJSON(input, helper: "jsonArrayAdd") else {
            return failure != nil ? .missing : .string("[ERROR: Base JSON is not valid JSON ('\(input)')]")
        }
        // Where the array is; Jayway reads an indefinite path into a new list, so the item goes there and
        // the document is written back unchanged.
        var locations: [JSONPathEditing.Location]? = []
        var indefinite = false
        var detail = "'\(input)'"
        if let jsonPath {
            guard let text = jsonPath.javaStringValue else {
                return .string("[ERROR: jsonPath option must be a string]")
            }
            guard !text.isEmpty, let path = try? JSONPathExpression(text) else {
                return .string("[ERROR: jsonPath option is not valid JSONPath expression ('\(text)')]")
            }
            detail = "root: '\(input)', jsonPath: '\(text)'"
            indefinite = !path.isDefinite && root.isContainer
            locations = path.isDefinite ? JSONPathEditing.locate(path, in: root) : nil
        }
        let target = locations.flatMap { JSONPathEditing.value(at: $0[...], in: root) }
        guard indefinite || target?.isArray == true else {
            return .string("[ERROR: Target JSON is not a JSON array (\(detail))]")
        }
        guard let itemText = (arguments.count > 1 ? arguments[1] : .missing).javaStringValue else {
            return .string("[ERROR: Item-to-add JSON must be a string]")
        }
        guard let item = readJSON(itemText, helper: "jsonArrayAdd") else {
            return failure != nil
                ? .missing : .string("[ERROR: Item-to-add JSON is not valid JSON ('\(itemText)')]")
        }
        var shouldFlatten = false
        if let flatten {
            guard case let .bool(value) = flatten else { return .string("[ERROR: flatten option must be a boolean]") }
            shouldFlatten = value
        }
        var keep: Int?
        if let maxItems {
            guard case let .integer(value) = maxItems else {
                return .string("[ERROR: maxItems option must be an integer]")
            }
            guard value >= 0 else { return .string("[ERROR: maxItems option integer must be positive]") }
            keep = value
        }
        guard !indefinite, let locations else { return output(JSONRendering.javaCompact(root)) }
        let result = JSONPathEditing.replacing(at: locations[...], in: root) { list in
            guard case var .array(items) = list else { return list }
            if shouldFlatten, case let .array(more) = item { items += more } else { items.append(item) }
            if let keep, items.count > keep { items.removeFirst(items.count - keep) }
            return .array(items)
        }
        return output(JSONRendering.javaCompact(result))
    }

    /// `text` parsed as JSON within ``TemplateLimits/maxJSONBytes`` (past it the response fails, naming
    /// the limit); `nil` if it is not JSON.
    private mutating func readJSON(_ text: String, helper: String) -> JSONValue? {
        let bytes = Array(text.utf8)
        guard budget.spend(steps: bytes.count / 256) else { return nil }
        guard bytes.count <= budget.limits.maxJSONBytes else {
            _ = fail(
                "\(helper): the value (\(bytes.count) bytes) is over the limit of JSON parsed per request, "
                    + "\(budget.limits.maxJSONBytes) bytes (--max-json-match-body, Configuration.jsonMatchBodyLimit)")
            return nil
        }
        return try? JSONParser.parse(bytes)
    }

    /// A helper's JSON text, its cost counted (one step per 256 bytes).
    private mutating func output(_ text: String) -> TemplateValue {
        guard budget.spend(steps: text.utf8.count / 256) else { return .missing }
        return .string(text)
    }

    /// What Jackson writes for the Java value WireMock 3 has: lists as arrays, maps as objects, a
    /// request field with one value as that value.
    static func jacksonValue(_ value: TemplateValue, count: inout Int) -> JSONValue {
        count += 1
        switch value {
        case .missing: return .null
        case let .string(text): return .string(text)
        case let .integer(number): return .number(String(number))
        case let .double(number): return .number(JSONRendering.javaDouble(number))
        case let .bool(flag): return .bool(flag)
        case let .json(json): return json
        case let .values(values): return values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))
        case let .list(items): return .array(items.map { jacksonValue($0, count: &count) })
        case let .map(entries): return .object(entries.map { ($0.key, jacksonValue($0.value, count: &count)) })
        case .fields:
            return .object((value.elements ?? []).map { ($0.key ?? "", jacksonValue($0.value, count: &count)) })
        case .path, .body, .date, .root, .request, .xml: return .string(value.text)
        }
    }
}

extension TemplateValue {
    /// The text of a value Java holds as a `String` (a literal, a request's body, a JSON string), else `nil`.
    var javaStringValue: String? {
        switch self {
        case let .string(text): text
        case let .json(.string(text)): text
        case .body, .path: text
        case .missing, .integer, .double, .bool, .json, .values, .list, .date, .map, .xml, .root, .request, .fields: nil
        }
    }

    /// The Java class of a literal value, for error messages.
    var javaTypeName: String {
        switch self {
        case .integer: "java.lang.Integer"
        case .double: "java.lang.Double"
        case .bool: "java.lang.Boolean"
        case .missing, .string, .json, .values, .list, .date, .map, .xml, .root, .request, .path, .fields, .body:
            "java.lang.Object"
        }
    }
}

extension JSONValue {
    var isContainer: Bool {
        switch self {
        case .array, .object: true
        case .null, .bool, .number, .string: false
        }
    }

    var isArray: Bool {
        if case .array = self { return true }
        return false
    }
}

/// WireMock 3's JSON helpers.
enum JSONEditHelper: String, Sendable, CaseIterable, TemplateHelperFamily {
    case toJson, formatJson, jsonMerge, jsonRemove, jsonArrayAdd

    /// How many arguments the helper takes inline; used as a block, the body is the first one (the second for
    /// ``takesBodySecond``).
    var argumentCounts: ClosedRange<Int> {
        switch self {
        case .toJson, .formatJson: 1...1
        case .jsonMerge, .jsonArrayAdd: 2...2
        case .jsonRemove: 0...Int.max
        }
    }

    /// Whether, used as a block, the body is the helper's second argument (the first is the JSON it edits).
    var takesBodySecond: Bool { self == .jsonMerge || self == .jsonArrayAdd }
}
