import StubXML

/// WireMock 2.35.1's `xPath` and `soapXPath` (`soapXPath` prefixes the expression with `/Envelope/Body/`).
/// The document is read without namespace processing, as WireMock does: `/stuff/thing` finds `<th:thing>`,
/// and `/stuff/th:thing` finds nothing.
extension TemplateEvaluator {
    @inline(never)
    mutating func xPathHelper(_ helper: XPathHelper, _ arguments: [TemplateValue]) -> TemplateValue {
        let subject = arguments.first ?? .missing
        guard arguments.count > 1, !arguments[1].isMissing else {
            return .string("[ERROR: The XPath expression cannot be empty]")
        }
        let source = arguments[1].text
        // WireMock passes a missing value on as the text `null`.
        let xml = subject.isMissing ? "null" : subject.text
        guard let document = xmlDocument(xml, isBody: { if case .body = subject { true } else { false } }()) else {
            return failure != nil || budget.exceeded != nil ? .missing : .string("[ERROR: \(xml) is not valid XML]")
        }
        let prefix = helper == .soapXPath ? "/Envelope/Body/" : ""
        guard let expression = try? StubXML.XPathExpression(prefix + source, localNames: true),
            let nodes = expression.selectNodes(in: document)
        else {
            return .string("[ERROR: \(source) is not a valid XPath expression]")
        }
        guard budget.spend(steps: nodes.count) else { return .missing }
        return nodes.isEmpty ? .string("") : .xml(TemplateXML(document: document, nodes: nodes))
    }

    /// `text` parsed as XML within the JSON size limit (the same bound the XML matchers use); the request
    /// body is parsed once per render.
    private mutating func xmlDocument(_ text: String, isBody: Bool) -> StubXML.XMLDocument? {
        if isBody, let cached = bodyXML { return cached }
        let count = text.utf8.count
        guard budget.spend(steps: count / 256) else { return nil }
        let limit = budget.limits.maxJSONBytes
        guard count <= limit else {
            _ = fail(
                "xPath: the value (\(count) bytes) is over the limit of XML parsed per request, \(limit) bytes "
                    + "(--max-json-match-body, Configuration.jsonMatchBodyLimit)")
            return nil
        }
        guard let document = try? StubXML.XMLDocument(parsing: text, limits: XMLLimits(maxBytes: limit)) else {
            return nil
        }
        guard budget.spend(steps: document.nodes.count / 16) else { return nil }
        if isBody { bodyXML = document }
        return document
    }
}

/// WireMock 2.35.1's XML helpers.
enum XPathHelper: String, Sendable, CaseIterable, TemplateHelperFamily {
    case xPath, soapXPath

    /// How many arguments the helper takes inline; used as a block, the body is the first one.
    var argumentCounts: ClosedRange<Int> {
        switch self {
        case .xPath, .soapXPath: 1...2
        }
    }
}
