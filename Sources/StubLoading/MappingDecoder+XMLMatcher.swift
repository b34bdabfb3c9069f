import StubMatching
import StubModel
import StubXML

/// Decoding of the XML matchers: `equalToXml` with its options, `matchesXPath` with `xPathNamespaces`.
extension MappingDecoder.Run {
    /// `{"equalToXml": "<a/>", "enablePlaceholders": true, "exemptedComparisons": [...]}`. The expected
    /// document, placeholders and delimiters are checked here, as WireMock refuses such a stub too.
    func decodeEqualToXML(_ value: JSONValue, in json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> StringMatcher
    {
        let operandPath = path.key("equalToXml")
        let xml = try operand(value, of: "equalToXml", at: operandPath)
        var options = XMLComparisonOptions()
        if let flag = json["enablePlaceholders"] {
            options.enablePlaceholders = try bool(flag, at: path.key("enablePlaceholders"))
        }
        if let open = json["placeholderOpeningDelimiterRegex"] {
            options.openingDelimiterRegex = try string(open, at: path.key("placeholderOpeningDelimiterRegex"))
        }
        if let close = json["placeholderClosingDelimiterRegex"] {
            options.closingDelimiterRegex = try string(close, at: path.key("placeholderClosingDelimiterRegex"))
        }
        if let exempted = json["exemptedComparisons"] {
            options.exemptedComparisons = try comparisonTypes(exempted, at: path.key("exemptedComparisons"))
        }
        let matcher = StringMatcher.equalToXml(xml, options)
        switch compiled.compile(matcher).compileFailure {
        case .xmlDocument(let error)?:
            throw failure(operandPath, "expected a well-formed XML document: \(error.description)")
        case let error?:
            throw failure(path, error.description)
        case nil:
            return matcher
        }
    }

    private func comparisonTypes(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> Set<XMLComparisonType>
    {
        var types = Set<XMLComparisonType>()
        for element in try elements(json, at: path, of: "comparison names") {
            let name = try string(element.value, at: element.path)
            guard let type = XMLComparisonType(rawValue: name) else {
                let known = XMLComparisonType.allCases.map(\.rawValue).joined(separator: ", ")
                throw failure(element.path, "unknown comparison '\(name)'; expected one of \(known)")
            }
            types.insert(type)
        }
        return types
    }

    /// `"/a/b"` or `{"expression": "/a/b", "equalTo": "x"}`, with `xPathNamespaces` beside it (or, as
    /// WireMock 2.35.1 also reads it, inside the object form).
    mutating func decodeXPath(_ value: JSONValue, in json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> StringMatcher
    {
        var namespaces = try xPathNamespaces(json["xPathNamespaces"], at: path.key("xPathNamespaces"))
        let operandPath = path.key("matchesXPath")
        if case .string(let expression) = value {
            try validateXPath(expression, namespaces: namespaces, at: operandPath)
            return .matchesXPath(expression, namespaces: namespaces, nil)
        }
        guard case .object(let members) = value else {
            throw failure(
                operandPath,
                "expected an XPath string or {\"expression\": …, \"equalTo\": …}, found \(value.foundDescription)")
        }
        guard let expressionJSON = value["expression"] else { throw failure(operandPath, "missing 'expression'") }
        let inside = try xPathNamespaces(value["xPathNamespaces"], at: operandPath.key("xPathNamespaces"))
        namespaces.merge(inside) { outer, _ in outer }
        let expression = try string(expressionJSON, at: operandPath.key("expression"))
        try validateXPath(expression, namespaces: namespaces, at: operandPath.key("expression"))
        let rest = members.filter { $0.key != "expression" && $0.key != "xPathNamespaces" }
        guard !rest.isEmpty else { return .matchesXPath(expression, namespaces: namespaces, nil) }
        // A sub-matcher not understood is recorded as unsupported: the stub never matches.
        let inner = try decodeNested(.object(rest), at: operandPath)
        return .matchesXPath(expression, namespaces: namespaces, inner)
    }

    private func xPathNamespaces(_ json: JSONValue?, at path: MappingPath) throws(StubsLoadError) -> [String: String] {
        guard let json else { return [:] }
        guard case .object(let members) = json else {
            throw failure(path, "expected an object of prefix → namespace URI, found \(json.foundDescription)")
        }
        var namespaces: [String: String] = [:]
        for (prefix, uri) in members {
            namespaces[prefix] = try string(uri, at: path.key(prefix))
        }
        return namespaces
    }

    private func validateXPath(_ expression: String, namespaces: [String: String], at path: MappingPath)
        throws(StubsLoadError)
    {
        guard !expression.isEmpty else {
            throw failure(path, "expected an XPath expression such as \"/a/b\", found \"\"")
        }
        if let error = compiled.compile(.matchesXPath(expression, namespaces: namespaces, nil)).compileFailure {
            throw failure(path, "invalid XPath expression: \(error.description)")
        }
    }
}
