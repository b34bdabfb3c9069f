import StubModel
import StubXML

/// `equalToXml` and `matchesXPath` on a parsed body, as WireMock 2.35.1 decides them.
package enum XMLMatching {
    /// The compiled comparison for an `equalToXml` matcher, or why it cannot compile (the expected document is not
    /// well-formed, or a placeholder expression does not compile).
    static func comparison(_ xml: String, _ options: XMLComparisonOptions) throws(MatcherCompileError)
        -> XMLComparison
    {
        let expected: StubXML.XMLDocument
        do {
            expected = try StubXML.XMLDocument(parsing: xml)
        } catch {
            throw .xmlDocument(error)
        }
        do {
            return try XMLComparison(expected: expected, options: options)
        } catch {
            throw .xmlOptions(error)
        }
    }

    /// Whether `expression` selects a node and, with `nested`, one selected node's value satisfies it.
    static func xPathMatches(
        _ expression: StubXML.XPathExpression, _ nested: CompiledStringMatcher?, _ document: StubXML.XMLDocument
    ) -> Bool {
        guard let nodes = expression.selectNodes(in: document), !nodes.isEmpty else { return false }
        guard let nested else { return true }
        return nodes.contains { nested.isSatisfied(by: MatchSubject(document.matchValue(of: $0))) }
    }

    /// Why a body does not satisfy an `equalToXml` matcher, or `nil` when it does.
    static func explain(_ comparison: XMLComparison, _ subject: MatchSubject) -> String? {
        guard let document = subject.xml else { return notXML(subject) }
        return comparison.firstDifference(with: document)?.description
    }

    /// Why a body does not satisfy a `matchesXPath` matcher, or `nil` when it does.
    static func explain(
        _ expression: StubXML.XPathExpression, _ nested: CompiledStringMatcher?, _ subject: MatchSubject
    ) -> String? {
        guard let document = subject.xml else { return notXML(subject) }
        let name = "XPath " + Quoting.quote(expression.source)
        guard let nodes = expression.selectNodes(in: document) else {
            return "\(name) does not select nodes (its value is not a node-set, or it visits too many nodes)"
        }
        guard !nodes.isEmpty else { return "\(name) selected nothing" }
        guard let nested else { return nil }
        let values = nodes.map(document.matchValue)
        if values.contains(where: { nested.isSatisfied(by: MatchSubject($0)) }) { return nil }
        let shown = values.prefix(3).map { Quoting.truncate($0, limit: 80) }.joined(separator: ", ")
        return "\(name): expected \(nested.source.description), got \(shown)\(values.count > 3 ? ", …" : "")"
    }

    /// Why there is no XML document to compare.
    private static func notXML(_ subject: MatchSubject) -> String {
        subject.xmlError.map { "the body is not well-formed XML: \($0)" } ?? "no XML body"
    }
}
