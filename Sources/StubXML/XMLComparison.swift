/// `equalToXml` as WireMock 2.35.1 decides it (XMLUnit with `ignoreWhitespace`, `ignoreComments` and
/// children sorted by local name): comments and whitespace-only text are dropped and text is trimmed; the
/// children of an element are sorted (stably) by local name and compared pairwise, so elements of
/// different names may come in any order but those of one name keep theirs; attribute order and
/// namespace prefixes do not matter (namespace URI and local name do); CDATA is text.
///
/// An element (or the document) with two or more children of which one is not an element (mixed
/// content, or a processing instruction beside the root) never matches: WireMock 2.35.1 fails sorting
/// such children and does not match them either.
///
/// Iterative: the pairs still to compare are an explicit stack.
public struct XMLComparison: Sendable {
    /// The expected document.
    public let expected: XMLDocument
    /// Placeholders and exemptions.
    public let options: XMLComparisonOptions
    /// Placeholders of the expected document: text nodes (attribute -1) and attribute values.
    let placeholders: [PlaceholderKey: XMLPlaceholder]

    struct PlaceholderKey: Hashable {
        var node: Int
        var attribute: Int
    }

    /// A comparison with `expected`, placeholders found once here.
    /// - Throws: ``XMLOptionError`` when a delimiter or `matchesRegex` expression does not compile.
    public init(expected: XMLDocument, options: XMLComparisonOptions = XMLComparisonOptions()) throws(XMLOptionError) {
        self.expected = expected
        self.options = options
        var found: [PlaceholderKey: XMLPlaceholder] = [:]
        if options.enablePlaceholders {
            let syntax = try XMLPlaceholderSyntax(options)
            for (index, node) in expected.nodes.enumerated() {
                if node.isText, let placeholder = try syntax.placeholder(in: node.value) {
                    found[PlaceholderKey(node: index, attribute: -1)] = placeholder
                }
                for (position, attribute) in node.attributes.enumerated() {
                    if let placeholder = try syntax.placeholder(in: attribute.value) {
                        found[PlaceholderKey(node: index, attribute: position)] = placeholder
                    }
                }
            }
        }
        placeholders = found
    }

    /// Whether `actual` is equal to the expected document.
    public func matches(_ actual: XMLDocument) -> Bool { firstDifference(with: actual) == nil }

    /// The first counted difference between the expected document and `actual` (in document order), or
    /// `nil` when they are equal.
    public func firstDifference(with actual: XMLDocument) -> XMLDifference? {
        walk(actual, limit: 1).differences.first
    }

    /// How far `actual` is from the expected document, for ranking near misses: the share of node
    /// comparisons that differ, 0 when equal, else in (0, 1] (WireMock counts XMLUnit's comparisons alike).
    public func distance(to actual: XMLDocument) -> Double {
        let (comparisons, differences) = walk(actual, limit: .max)
        guard !differences.isEmpty else { return 0 }
        return min(1, Double(differences.count) / Double(max(comparisons, differences.count)))
    }

    /// Compares the documents, counting node comparisons and collecting up to `limit` differences.
    private func walk(_ actual: XMLDocument, limit: Int) -> (comparisons: Int, differences: [XMLDifference]) {
        var comparisons = 0
        var differences: [XMLDifference] = []
        var pending: [(expected: Int, actual: Int, path: String)] = [(0, 0, "")]
        while let (control, test, path) = pending.popLast(), differences.count < limit {
            let here = path.isEmpty ? "/" : path
            let controlChildren = Self.significantChildren(of: control, in: expected)
            let testChildren = Self.significantChildren(of: test, in: actual)
            comparisons += 1
            if [(controlChildren, expected), (testChildren, actual)].contains(where: { children, document in
                children.count > 1 && children.contains { document[$0].kind != .element }
            }) {
                differences.append(
                    XMLDifference(
                        path: here,
                        message: "mixed content (text or processing instructions beside elements) is never equal"))
                continue
            }
            if controlChildren.count == 1, testChildren.isEmpty, case .ignore = placeholder(controlChildren[0]) {
                continue
            }
            if controlChildren.count != testChildren.count && counts(.childNodelistLength) {
                let wanted = describe(controlChildren, in: expected)
                differences.append(
                    XMLDifference(
                        path: here, message: "expected \(wanted), found \(describe(testChildren, in: actual))"))
            }
            var children: [(expected: Int, actual: Int, path: String)] = []
            for (controlChild, testChild) in zip(controlChildren, testChildren) {
                comparisons += 1
                if let difference = compare(controlChild, testChild, in: actual, under: path) {
                    differences.append(difference)
                }
                if expected[controlChild].kind == .element {
                    children.append((controlChild, testChild, path + "/" + expected[controlChild].name.qualifiedName))
                }
            }
            if controlChildren.count > testChildren.count && counts(.childLookup) {
                comparisons += controlChildren.count - testChildren.count
                for missing in controlChildren[testChildren.count...] {
                    differences.append(
                        XMLDifference(
                            path: here, message: "expected \(describe([missing], in: expected)), found nothing"))
                }
            }
            // Reversed, so that the stack gives the children back in document order.
            pending.append(contentsOf: children.reversed())
        }
        return (comparisons, Array(differences.prefix(limit)))
    }

    func counts(_ type: XMLComparisonType) -> Bool { !options.exemptedComparisons.contains(type) }

    func placeholder(_ node: Int, attribute: Int = -1) -> XMLPlaceholder? {
        placeholders[PlaceholderKey(node: node, attribute: attribute)]
    }

    /// Children without comments and whitespace-only text, stably sorted by local name (text first).
    static func significantChildren(of index: Int, in document: XMLDocument) -> [Int] {
        let children = document[index].children.filter { child in
            let node = document[child]
            switch node.kind {
            case .comment: return false
            case .text, .cdata: return !trimmed(node.value).isEmpty
            case .document, .element, .processingInstruction: return true
            }
        }
        guard children.count > 1 else { return children }
        return children.enumerated().sorted { left, right in
            let leftName = document[left.element].kind == .element ? document[left.element].name.localName : ""
            let rightName = document[right.element].kind == .element ? document[right.element].name.localName : ""
            return leftName == rightName ? left.offset < right.offset : leftName < rightName
        }.map(\.element)
    }

    /// `text` without leading and trailing spaces, tabs and line breaks.
    static func trimmed(_ text: String) -> Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" || character == "\n" }
        let start = text.firstIndex { !isSpace($0) } ?? text.endIndex
        let end = text.lastIndex { !isSpace($0) }.map { text.index(after: $0) } ?? start
        return text[start..<max(start, end)]
    }
}

/// Where and how a document differs from the expected one.
public struct XMLDifference: Sendable, Hashable, CustomStringConvertible {
    /// The path of the expected element where the difference is, such as `/order/item`.
    public var path: String
    /// What was expected and what was found.
    public var message: String

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
