/// An XPath 1.0 axis.
enum XPathAxis: String, Sendable {
    case child, descendant, parent, ancestor, attribute, namespace
    case descendantOrSelf = "descendant-or-self"
    case ancestorOrSelf = "ancestor-or-self"
    case followingSibling = "following-sibling"
    case precedingSibling = "preceding-sibling"
    case following, preceding
    case `self`

    var isReverse: Bool {
        switch self {
        case .parent, .ancestor, .ancestorOrSelf, .precedingSibling, .preceding: true
        case .child, .descendant, .attribute, .namespace, .descendantOrSelf, .followingSibling, .following, .self:
            false
        }
    }
}

/// What a step selects on its axis.
enum XPathNodeTest: Sendable {
    /// `*`
    case anyName
    /// `a` or `p:a`; the URI is resolved at parse time when namespaces are given.
    case name(qualified: String, local: String, uri: String?)
    /// `p:*`
    case anyInNamespace(String)
    case text, node, comment
    case processingInstruction(String?)
}

/// One location step: `axis::test[predicate]…`.
struct XPathStep: Sendable {
    var axis: XPathAxis
    var test: XPathNodeTest
    var predicates: [XPathNodeExpression]
}

/// A parsed XPath 1.0 expression tree; its depth is bounded by the parser.
indirect enum XPathNodeExpression: Sendable {
    case literal(String)
    case number(Double)
    case function(String, [XPathNodeExpression])
    /// A location path: from the root (`absolute`), from a filter expression, or from the context node.
    case path(start: XPathNodeExpression?, absolute: Bool, steps: [XPathStep])
    /// A primary expression with predicates: `(…)[1]`.
    case filter(XPathNodeExpression, [XPathNodeExpression])
    /// `first op1 e1 op2 e2 …`, one precedence level, left-associative: a list, not a left-deep tree, so
    /// that a long chain costs no recursion.
    case chain(XPathNodeExpression, [(symbol: String, operand: XPathNodeExpression)])
    case negate(XPathNodeExpression)
}

/// A compiled XPath 1.0 expression, with the namespace prefixes it may use.
///
/// With no namespaces, as in WireMock 2.35.1 without `xPathNamespaces`, the document is read without
/// namespace processing: a name test matches the name as written (`a` matches `<a xmlns="urn:x">`), and a
/// prefixed name test cannot be resolved. With namespaces, a name test matches namespace URI and local
/// name, and namespace declarations are not attributes.
public struct XPathExpression: Sendable {
    /// The expression as written.
    public let source: String
    /// Prefix → namespace URI (`xPathNamespaces`).
    public let namespaces: [String: String]
    let root: XPathNodeExpression
    /// Most tokens an expression may have.
    public static let maxTokens = 512

    /// Whether an unprefixed name test matches the local part of a prefixed name (`thing` finds
    /// `<th:thing>`) and a prefixed one finds nothing: how WireMock 2.35.1's `xPath` template helper reads a
    /// document (a JDK XPath over a DOM built without namespaces).
    public let matchesLocalNames: Bool

    /// The namespace URI of a name test whose prefix is not declared, in ``matchesLocalNames`` mode.
    static let unresolvedPrefix = "\u{0}unresolved"

    /// Parses `source`.
    /// - Parameter localNames: see ``matchesLocalNames``; only without `namespaces`.
    /// - Throws: ``XPathError`` for a syntax error, an unknown function or axis, or a prefix not in
    ///   `namespaces` (unless `localNames`).
    public init(_ source: String, namespaces: [String: String] = [:], localNames: Bool = false) throws(XPathError) {
        self.source = source
        self.namespaces = namespaces
        matchesLocalNames = localNames && namespaces.isEmpty
        let tokens = try XPathLexer.tokens(source)
        guard tokens.count <= Self.maxTokens else {
            throw XPathError("expression of \(tokens.count) tokens; at most \(Self.maxTokens) are accepted")
        }
        var parser = XPathParser(tokens: tokens, namespaces: namespaces)
        parser.lenientPrefixes = matchesLocalNames
        root = try parser.parseExpression()
        guard parser.atEnd else { throw XPathError("unexpected \(parser.describeCurrent()) in '\(source)'") }
    }

    /// Whether the document is read with namespace processing.
    var namespaceAware: Bool { !namespaces.isEmpty }
}
