// libFuzzer target for StubXML. Built by `fuzz/run.sh SECONDS xml` together with Sources/StubXML and
// Sources/StubRegex.
//
// An input is an XML document, optionally followed by a NUL byte and an XPath expression. The document is parsed
// with default and with small limits: small limits may only refuse what default limits accept, never accept
// something else. A parsed document must render (as `matchesXPath` renders a selected element) to XML that parses
// again, to the same number of elements; it must compare equal to itself unless it has mixed content (which WireMock
// never finds equal); and XPath expressions, fixed ones and the input's, must evaluate without trapping.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fputs("invariant failed: \(message())\n", stderr)
        abort()
    }
}

private let fixedSources = [
    "//*", "//@*", "count(//*)", "//text()", "/*/*[1]", "//*[local-name()='a']", "string(/)",
    "//*[contains(text(), 'x')]", "/descendant-or-self::node()/ancestor::*", "sum(//@*) + 1"
]

private func elementCount(_ document: XMLDocument) -> Int {
    document.nodes.filter { $0.kind == .element }.count
}

private func exercise(_ xml: String, expression: String?) {
    let parsed: XMLDocument
    do {
        parsed = try XMLDocument(parsing: xml)
    } catch {
        // Small limits refuse everything default ones refuse.
        check(
            (try? XMLDocument(parsing: xml, limits: XMLLimits(maxDepth: 4, maxBytes: 256))) == nil,
            "small limits accepted more")
        check(!error.description.isEmpty, "empty error message")
        return
    }
    if let small = try? XMLDocument(parsing: xml, limits: XMLLimits(maxDepth: 4, maxBytes: 256)) {
        check(small.nodes.count == parsed.nodes.count, "small limits read a different document")
    }
    let root = XPathNode(index: parsed.rootIndex, attribute: -1)
    let rendered = parsed.matchValue(of: root)
    guard let again = try? XMLDocument(parsing: rendered) else {
        check(false, "the rendering does not parse: \(rendered)")
        return
    }
    check(elementCount(again) == elementCount(parsed), "the rendering has a different number of elements")
    // WireMock never finds equal an element (or the document) with two or more children, comments and blank text
    // aside, of which one is not an element.
    let mixed = parsed.nodes.contains { node in
        guard node.kind == .element || node.kind == .document else { return false }
        let kept = node.children.filter { child in
            parsed[child].kind != .comment
                && !(parsed[child].isText && parsed[child].value.allSatisfy { " \t\r\n".contains($0) })
        }
        return kept.count >= 2 && kept.contains { parsed[$0].kind != .element }
    }
    if !mixed, let comparison = try? XMLComparison(expected: parsed) {
        check(comparison.matches(parsed), "a document differs from itself")
    }
    // Compiled per input: a global would be reported as a leak at exit.
    var expressions = fixedSources.map { try! XPathExpression($0) }
    if let expression, let compiled = try? XPathExpression(expression) { expressions.append(compiled) }
    for expression in expressions {
        if let nodes = expression.selectNodes(in: parsed) {
            check(nodes.count <= parsed.nodes.count * 64 + 64, "more nodes selected than exist")
            for node in nodes.prefix(8) { _ = parsed.matchValue(of: node) }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if let nul = bytes.firstIndex(of: 0) {
        let expression = String(decoding: bytes[(nul + 1)...], as: UTF8.self)
        exercise(String(decoding: bytes[..<nul], as: UTF8.self), expression: expression)
    } else {
        exercise(String(decoding: bytes, as: UTF8.self), expression: nil)
    }
    return 0
}
