import StubHTTP
import StubMatching
import StubModel
import StubRegex

/// Decoding of matcher objects: `{"equalTo": "x"}`, `{"hasExactly": [...]}` and friends (and, at the end of this
/// file, a ``StringMatcher`` encoded back, so that a matcher's JSON is read and written in one place).
extension MappingDecoder.Run {
    static let matcherOperators =
        [
            "equalTo", "contains", "matches", "doesNotMatch", "absent", "equalToJson", "matchesJsonPath",
            "doesNotContain", "equalToXml", "matchesXPath", "matchesJsonSchema",
            "and", "or", "not"
        ] + NumberComparison.allCases.map(\.rawValue) + DateTimeMatcher.Comparison.allCases.map(\.rawValue)
    static let multiValueOperators = ["hasExactly", "includes"]
    /// Modifier → the operator it applies to.
    static let matcherModifiers: KeyValuePairs<String, String> = [
        "caseInsensitive": "equalTo", "ignoreArrayOrder": "equalToJson", "ignoreExtraElements": "equalToJson",
        "enablePlaceholders": "equalToXml", "placeholderOpeningDelimiterRegex": "equalToXml",
        "placeholderClosingDelimiterRegex": "equalToXml", "exemptedComparisons": "equalToXml",
        "xPathNamespaces": "matchesXPath", "schemaVersion": "matchesJsonSchema"
    ]
    /// WireMock operators stubserver does not implement: the stub never matches, with a warning.
    static let unsupportedOperators: Set<String> = []
    /// How deep matchers may hold matchers (`and`, `or`, `not`, a `matchesJsonPath` with a matcher of its
    /// own): decoding, compiling and matching recurse per level, with frames of several KiB in a debug build.
    static let maxNestedMatchers = 8
    /// WireMock modifiers of the operators above, or of features stubserver ignores.
    static let unsupportedModifiers: Set<String> = [
        "actualFormat", "expectedOffset", "expectedOffsetUnit", "truncateExpected", "truncateActual"
    ]

    /// Decodes a query parameter or header matcher; `nil` if it only uses unsupported operators.
    mutating func decodeMultiValueMatcher(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> MultiValueMatcher?
    {
        let members = try matcherObject(json, at: path, multiValue: true)
        guard let multi = members.first(where: { Self.multiValueOperators.contains($0.key) }) else {
            return try decodeMatcher(json, at: path).map { .single($0) }
        }
        if let other = members.first(where: {
            $0.key != multi.key && (Self.multiValueOperators + Self.matcherOperators).contains($0.key)
        }) {
            throw failure(path, "both '\(multi.key)' and '\(other.key)' are set; use one operator per matcher")
        }
        try checkFields(members, at: path, supported: [multi.key])
        let list = try elements(multi.value, at: path.key(multi.key), of: "matchers")
        var matchers: [StringMatcher] = []
        for element in list {
            if let matcher = try decodeMatcher(element.value, at: element.path) { matchers.append(matcher) }
        }
        // An element not understood was recorded as unsupported: the stub never matches.
        if matchers.count < list.count { return nil }
        return multi.key == "hasExactly" ? .hasExactly(matchers) : .includes(matchers)
    }

    /// Decodes one body pattern: a string matcher, or `{"binaryEqualTo": "base64"}`, which WireMock 2.35.1 reads
    /// wherever it stands among the members (only `absent` goes before it), and only in `bodyPatterns`.
    mutating func decodeBodyPattern(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> StringMatcher? {
        guard case .object(let members) = json, let operand = json["binaryEqualTo"], json["absent"] == nil else {
            return try decodeMatcher(json, at: path)
        }
        let operandPath = path.key("binaryEqualTo")
        guard case .string(let text) = operand else {
            throw failure(
                operandPath, "expected a base64 string for 'binaryEqualTo', found \(operand.foundDescription)")
        }
        let bytes: [UInt8]
        do {
            bytes = try Base64.decode(text)
        } catch {
            throw failure(operandPath, "expected base64 for 'binaryEqualTo': \(error)")
        }
        let others = members.map(\.key).filter { $0 != "binaryEqualTo" && Self.matcherOperators.contains($0) }
        for key in others { warn(.noEffect, key, at: path) }
        try checkFields(
            members, at: path, supported: ["binaryEqualTo"],
            silent: Set(others).union(Self.matcherModifiers.map(\.key)), wireMockOnly: Self.unsupportedModifiers)
        return .binaryEqualTo(bytes)
    }

    /// Decodes one string matcher; `nil` (with a warning) if it only uses an unsupported operator.
    mutating func decodeMatcher(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> StringMatcher? {
        let members = try matcherObject(json, at: path, multiValue: false)
        let operators = members.filter {
            Self.matcherOperators.contains($0.key) || Self.unsupportedOperators.contains($0.key)
        }
        if let multi = members.first(where: { Self.multiValueOperators.contains($0.key) }) {
            throw failure(path, "'\(multi.key)' is only supported for query parameters and headers")
        }
        guard let (name, value) = operators.first else {
            let known = Self.matcherOperators + Self.matcherModifiers.map(\.key)
            for (key, _) in members {
                if let suggestion = FieldSuggestion.closest(to: key, among: known) {
                    throw failure(path.key(key), "unknown field; did you mean '\(suggestion)'?")
                }
            }
            throw failure(path, "expected a matcher with one of \(Self.matcherOperators.joined(separator: ", "))")
        }
        // WireMock 2.35 reads the first operator it knows, in the order written, and drops the rest.
        let ignored = operators.dropFirst().map(\.key)
        for key in ignored { warn(.noEffect, key, at: path) }
        if Self.unsupportedOperators.contains(name) {
            try unsupported(name, at: path, alternatives: Self.matcherOperators)
            return nil
        }
        if let comparison = DateTimeMatcher.Comparison(rawValue: name) {
            return try decodeDateTime(comparison, value, in: json, ignoring: ignored, at: path)
        }
        try checkModifiers(members, of: name, ignoring: ignored, at: path)
        let operandPath = path.key(name)
        switch name {
        case "equalTo":
            let caseInsensitive = try json["caseInsensitive"].map { (flag) throws(StubsLoadError) in
                try bool(flag, at: path.key("caseInsensitive"))
            }
            return .equalTo(try operand(value, of: name, at: operandPath), caseInsensitive: caseInsensitive ?? false)
        case "contains":
            return .contains(try operand(value, of: name, at: operandPath))
        case "doesNotContain":
            return .doesNotContain(try operand(value, of: name, at: operandPath))
        case "and", "or", "not":
            return try decodeLogical(name, value, at: operandPath)
        case _ where NumberComparison(rawValue: name) != nil:
            return try decodeNumber(name, value, at: operandPath)
        case "matches", "doesNotMatch":
            let pattern = try operand(value, of: name, at: operandPath)
            try validateRegex(pattern, at: operandPath)
            return name == "matches" ? .matches(pattern) : .doesNotMatch(pattern)
        case "absent":
            guard try bool(value, at: operandPath) else {
                throw failure(operandPath, "'absent' must be true; to require a value use {\"matches\": \".*\"}")
            }
            return .absent
        case "equalToJson":
            return try decodeEqualToJSON(value, in: json, at: path)
        case "equalToXml":
            return try decodeEqualToXML(value, in: json, at: path)
        case "matchesXPath":
            return try decodeXPath(value, in: json, at: path)
        case "matchesJsonSchema":
            return try decodeJSONSchema(value, in: json, at: path)
        default:
            return try decodeJSONPath(value, at: operandPath)
        }
    }

    /// The members of a matcher object, with a hint when a bare string was given.
    private func matcherObject(_ json: JSONValue, at path: MappingPath, multiValue: Bool) throws(StubsLoadError) -> [(
        key: String, value: JSONValue
    )] {
        guard case .object(let members) = json else {
            let example = json.stringValue.map { JSONValue.string($0).serialized() } ?? "\"…\""
            throw failure(
                path, "expected a matcher object such as {\"equalTo\": \(example)}, found \(json.foundDescription)")
        }
        return members
    }

    func operand(_ value: JSONValue, of name: String, at path: MappingPath) throws(StubsLoadError) -> String {
        guard case .string(let text) = value else {
            throw failure(path, "expected a string operand for '\(name)', found \(value.foundDescription)")
        }
        return text
    }

    /// Modifiers of another operator are ignored with a warning; unknown keys are classified. `ignored`: the
    /// operators after the first, already warned of.
    private mutating func checkModifiers(
        _ members: [(key: String, value: JSONValue)], of name: String, ignoring ignored: [String],
        at path: MappingPath
    ) throws(StubsLoadError) {
        let applicable = Self.matcherModifiers.filter { $0.value == name }.map(\.key)
        for (key, _) in members {
            if let target = Self.matcherModifiers.first(where: { $0.key == key })?.value, target != name {
                warn(.noEffect, key, at: path)
            }
        }
        let others = Set(Self.matcherModifiers.map(\.key)).subtracting(applicable).union(ignored)
        try checkFields(
            members, at: path, supported: [name] + applicable, silent: others,
            wireMockOnly: Self.unsupportedModifiers)
    }

    private func decodeEqualToJSON(_ value: JSONValue, in json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> StringMatcher
    {
        var expected = value
        if case .string(let text) = value {
            do {
                expected = try JSONParser.parse(text)
            } catch {
                throw failure(path.key("equalToJson"), "the string is not valid JSON: \(error)")
            }
        }
        let ignoreOrder = try json["ignoreArrayOrder"].map { (flag) throws(StubsLoadError) in
            try bool(flag, at: path.key("ignoreArrayOrder"))
        }
        let ignoreExtra = try json["ignoreExtraElements"].map { (flag) throws(StubsLoadError) in
            try bool(flag, at: path.key("ignoreExtraElements"))
        }
        return .equalToJson(expected, ignoreArrayOrder: ignoreOrder ?? false, ignoreExtraElements: ignoreExtra ?? false)
    }

    /// `"$.a"` or `{"expression": "$.a", "equalTo": "x"}`.
    private mutating func decodeJSONPath(_ value: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> StringMatcher
    {
        if case .string(let expression) = value {
            guard !expression.isEmpty else {
                throw failure(path, "expected a JSON path expression such as \"$.name\", found \"\"")
            }
            try validateJSONPath(expression, at: path)
            return .matchesJsonPath(expression, nil)
        }
        guard case .object(let members) = value else {
            throw failure(
                path,
                "expected a JSON path string or {\"expression\": …, \"equalTo\": …}, found \(value.foundDescription)")
        }
        guard let expressionJSON = value["expression"] else { throw failure(path, "missing 'expression'") }
        let expression = try string(expressionJSON, at: path.key("expression"))
        guard !expression.isEmpty else {
            throw failure(path.key("expression"), "expected a JSON path expression such as \"$.name\", found \"\"")
        }
        try validateJSONPath(expression, at: path.key("expression"))
        let rest = members.filter { $0.key != "expression" }
        guard !rest.isEmpty else { return .matchesJsonPath(expression, nil) }
        // A nested matcher not understood was recorded as unsupported: the stub never matches.
        return .matchesJsonPath(expression, try decodeNested(.object(rest), at: path))
    }

    /// `{"and": [m1, m2]}`, `{"or": [m1, m2]}` (at least one matcher, as WireMock 2.35.1 takes them; WireMock 3
    /// wants two) or `{"not": m}`;
    /// `nil` if a matcher inside is unsupported (already recorded: the stub never matches).
    private mutating func decodeLogical(_ name: String, _ value: JSONValue, at path: MappingPath)
        throws(StubsLoadError) -> StringMatcher?
    {
        if name == "not" { return try decodeNested(value, at: path).map { .not($0) } }
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw failure(
                path, "expected an array of at least one matcher for '\(name)', found \(value.foundDescription)")
        }
        var matchers: [StringMatcher] = []
        for (index, element) in elements.enumerated() {
            guard let matcher = try decodeNested(element, at: path.index(index)) else { return nil }
            matchers.append(matcher)
        }
        return name == "and" ? .and(matchers) : .or(matchers)
    }

    /// `{"greaterThanNumber": 5}`: a JSON number or a string holding one, read as WireMock 3 reads it (Java's
    /// `Double.parseDouble` of the text).
    private func decodeNumber(_ name: String, _ value: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> StringMatcher
    {
        let text: String
        switch value {
        case .number(let literal), .string(let literal): text = literal
        case .null, .bool, .array, .object:
            throw failure(path, "expected a number for '\(name)', found \(value.foundDescription)")
        }
        guard let comparison = NumberComparison(rawValue: name), let operand = JavaNumber.parse(text) else {
            throw failure(path, "expected a number for '\(name)', found \(value.foundDescription)")
        }
        return .number(comparison, operand)
    }

    /// A matcher inside another, one level deeper, within ``maxNestedMatchers``.
    mutating func decodeNested(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> StringMatcher?
    {
        guard matcherDepth < Self.maxNestedMatchers else {
            throw failure(
                path,
                "matchers nested deeper than \(Self.maxNestedMatchers) (each and, or, not, or matchesJsonPath or matchesXPath with a matcher of its own is one level)"
            )
        }
        matcherDepth += 1
        defer { matcherDepth -= 1 }
        return try decodeMatcher(json, at: path)
    }

    /// JSONPath expressions are compiled at load time, once: the route table takes the compiled path
    /// (``CompiledMatchers``), so an unsupported or malformed path fails here. WireMock loads such a stub and never matches it: with
    /// ``StubsLoadOptions/lenientMatchers`` so does stubserver, with a warning (never past a size limit).
    private mutating func validateJSONPath(_ expression: String, at path: MappingPath) throws(StubsLoadError) {
        guard let error = compiled.compile(.matchesJsonPath(expression, nil)).compileFailure else { return }
        let exceedsLimit = if case let .jsonPath(error) = error { error.exceedsLimit } else { false }
        guard options.lenientMatchers, !exceedsLimit else {
            let hint = exceedsLimit ? "" : " (--lenient loads the stub so that it never matches, as WireMock does)"
            throw failure(path, error.description + hint)
        }
        warn(.invalidNeverMatches(reason: error.description), "matchesJsonPath", at: path)
        unsupportedMatchers.append(UnsupportedMatcher(name: "matchesJsonPath", field: path.description))
    }

    /// Regular expressions are compiled at load time, once (Java syntax, as WireMock): the route table takes the
    /// compiled regex (``CompiledMatchers``), and a typo fails here, naming what is wrong and where, not at
    /// match time.
    func validateRegex(_ pattern: String, at path: MappingPath) throws(StubsLoadError) {
        if let error = compiled.compile(.matches(pattern)).compileFailure {
            throw failure(path, error.description)
        }
    }

    /// Records the matcher `name` at `path` as not supported: the stub being decoded will never match.
    /// - Parameter object: the object the warning names (default: `path`).
    /// Without ``StubsLoadOptions/lenientMatchers`` it is an error listing `alternatives`.
    mutating func unsupported(
        _ name: String, at path: MappingPath, in object: MappingPath? = nil, alternatives: [String]
    ) throws(StubsLoadError) {
        guard options.lenientMatchers else {
            throw failure(
                path,
                "'\(name)' is not supported by stubserver; use \(alternatives.joined(separator: ", ")) "
                    + "(--lenient loads the stub so that it never matches)")
        }
        warn(.neverMatches, name, at: object ?? path)
        unsupportedMatchers.append(UnsupportedMatcher(name: name, field: path.description))
    }
}

extension StringMatcher {
    /// The matcher as WireMock JSON; default modifiers (`false`) are left out.
    public var json: JSONValue {
        switch self {
        case .equalTo(let text, let caseInsensitive):
            return caseInsensitive ? ["equalTo": .string(text), "caseInsensitive": true] : ["equalTo": .string(text)]
        case .contains(let text): return ["contains": .string(text)]
        case .matches(let pattern): return ["matches": .string(pattern)]
        case .doesNotMatch(let pattern): return ["doesNotMatch": .string(pattern)]
        case .absent: return ["absent": true]
        case .equalToJson(let value, let ignoreArrayOrder, let ignoreExtraElements):
            var members: [(key: String, value: JSONValue)] = [("equalToJson", value)]
            if ignoreArrayOrder { members.append(("ignoreArrayOrder", true)) }
            if ignoreExtraElements { members.append(("ignoreExtraElements", true)) }
            return .object(members)
        case .matchesJsonPath(let expression, nil):
            return ["matchesJsonPath": .string(expression)]
        case .matchesJsonPath(let expression, let inner?):
            guard case .object(let innerMembers) = inner.json else { return ["matchesJsonPath": .string(expression)] }
            return ["matchesJsonPath": .object([("expression", .string(expression))] + innerMembers)]
        case .doesNotContain(let text): return ["doesNotContain": .string(text)]
        case .and(let matchers): return ["and": .array(matchers.map(\.json))]
        case .or(let matchers): return ["or": .array(matchers.map(\.json))]
        case .not(let matcher): return ["not": matcher.json]
        case .number(let comparison, let operand):
            let text = JavaNumber.text(operand)
            return [comparison.rawValue: operand.isFinite ? .number(text) : .string(text)]
        case .binaryEqualTo(let bytes): return ["binaryEqualTo": .string(Base64.encode(bytes))]
        case .dateTime(let matcher):
            var members: [(key: String, value: JSONValue)] = [(matcher.comparison.rawValue, .string(matcher.expected))]
            if let offset = matcher.expectedOffset {
                members.append(("expectedOffset", JSONValue(offset.amount)))
                members.append(("expectedOffsetUnit", .string(offset.unit.rawValue)))
            }
            if let truncation = matcher.truncateExpected {
                members.append(("truncateExpected", .string(truncation.rawValue)))
            }
            if let truncation = matcher.truncateActual {
                members.append(("truncateActual", .string(truncation.rawValue)))
            }
            if let format = matcher.actualFormat { members.append(("actualFormat", .string(format))) }
            return .object(members)
        case .equalToXml(let xml, let options):
            var members: [(key: String, value: JSONValue)] = [("equalToXml", .string(xml))]
            if options.enablePlaceholders { members.append(("enablePlaceholders", true)) }
            if let open = options.openingDelimiterRegex {
                members.append(("placeholderOpeningDelimiterRegex", .string(open)))
            }
            if let close = options.closingDelimiterRegex {
                members.append(("placeholderClosingDelimiterRegex", .string(close)))
            }
            if !options.exemptedComparisons.isEmpty {
                let names = options.exemptedComparisons.map(\.rawValue).sorted()
                members.append(("exemptedComparisons", .array(names.map { .string($0) })))
            }
            return .object(members)
        case .matchesJsonSchema(let schema, let version):
            var members: [(key: String, value: JSONValue)] = [("matchesJsonSchema", .string(schema.serialized()))]
            if version != .v202012 { members.append(("schemaVersion", .string(version.rawValue))) }
            return .object(members)
        case .matchesXPath(let expression, let namespaces, let inner):
            var operand = JSONValue.string(expression)
            if let inner, case .object(let innerMembers) = inner.json {
                operand = .object([("expression", .string(expression))] + innerMembers)
            }
            var members: [(key: String, value: JSONValue)] = [("matchesXPath", operand)]
            if !namespaces.isEmpty {
                let sorted = namespaces.sorted { $0.key < $1.key }
                members.append(("xPathNamespaces", .object(sorted.map { ($0.key, .string($0.value)) })))
            }
            return .object(members)
        }
    }
}
