/// A namespace-resolved XML name: `p:item` with `xmlns:p="urn:x"` has prefix `p`, local name `item` and
/// namespace URI `urn:x`.
public struct XMLName: Sendable, Hashable {
    /// The prefix as written, or `nil` when the name has none.
    public var prefix: String?
    /// The part after the colon (the whole name when unprefixed).
    public var localName: String
    /// The namespace the prefix (or the default namespace) is bound to; `nil` for no namespace.
    public var namespaceURI: String?

    /// A name from its parts.
    public init(prefix: String? = nil, localName: String, namespaceURI: String? = nil) {
        self.prefix = prefix
        self.localName = localName
        self.namespaceURI = namespaceURI
    }

    /// The name as written: `prefix:localName` or `localName`.
    public var qualifiedName: String { prefix.map { "\($0):\(localName)" } ?? localName }

    /// Whether both names have the same namespace URI and local name (the prefix is irrelevant).
    public func isExpandedEqual(to other: XMLName) -> Bool {
        localName == other.localName && namespaceURI == other.namespaceURI
    }
}

/// One attribute of an element, namespace declarations (`xmlns`, `xmlns:p`) included.
public struct XMLAttribute: Sendable, Hashable {
    /// The attribute's name; an unprefixed attribute is in no namespace.
    public var name: XMLName
    /// The normalised value, references expanded.
    public var value: String

    /// An attribute from its name and value.
    public init(name: XMLName, value: String) {
        self.name = name
        self.value = value
    }

    /// Whether this is a namespace declaration (`xmlns` or `xmlns:p`).
    public var isNamespaceDeclaration: Bool { name.namespaceURI == XMLNamespaces.xmlnsURI }
}

/// What a node of an ``XMLDocument`` is.
public enum XMLNodeKind: Sendable, Hashable {
    /// The document itself (index 0), parent of the root element.
    case document
    /// An element, with a name, attributes and children.
    case element
    /// Character data, references expanded (adjacent text is one node).
    case text
    /// A `<![CDATA[...]]>` section.
    case cdata
    /// A `<!-- ... -->` comment.
    case comment
    /// A `<?target data?>` processing instruction: the target is the node's local name.
    case processingInstruction
}

/// One node of an ``XMLDocument``, which stores them flat in document order.
public struct XMLNode: Sendable {
    /// What the node is.
    public var kind: XMLNodeKind
    /// An element's name, or a processing instruction's target (local name); empty otherwise.
    public var name: XMLName
    /// Text, CDATA, comment or processing-instruction data; empty for elements and the document.
    public var value: String
    /// An element's attributes in the order written, namespace declarations included.
    public var attributes: [XMLAttribute]
    /// Index of the parent node; -1 for the document.
    public var parent: Int
    /// Indices of the children, in order.
    public var children: [Int]
    /// One past the index of the last descendant: the descendants are `index + 1 ..< end`.
    public var end: Int

    init(kind: XMLNodeKind, name: XMLName = XMLName(localName: ""), value: String = "", parent: Int, end: Int) {
        self.kind = kind
        self.name = name
        self.value = value
        self.attributes = []
        self.parent = parent
        self.children = []
        self.end = end
    }

    /// Whether the node is text or CDATA.
    public var isText: Bool { kind == .text || kind == .cdata }
}
