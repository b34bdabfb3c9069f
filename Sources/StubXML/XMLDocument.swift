/// A parsed, well-formed XML 1.0 document: its nodes flat, in document order, with index 0 the document
/// node. A value type without references, so it is `Sendable` and cheap to walk without recursion.
public struct XMLDocument: Sendable {
    /// All nodes in document order (index 0: the document node).
    public internal(set) var nodes: [XMLNode]
    /// Index of the root element.
    public internal(set) var rootIndex: Int

    /// Parses `text` as an XML 1.0 document with namespaces.
    /// - Throws: ``XMLParseError`` with the line and column of the first well-formedness error, or a
    ///   limit exceeded.
    public init(parsing text: String, limits: XMLLimits = XMLLimits()) throws(XMLParseError) {
        var parser = XMLParser(bytes: Array(text.utf8), limits: limits)
        try parser.parse()
        nodes = parser.nodes
        rootIndex = parser.rootIndex
    }

    /// The root element.
    public var root: XMLNode { nodes[rootIndex] }

    /// The node at `index`.
    public subscript(index: Int) -> XMLNode { nodes[index] }

    /// The XPath string value of node `index`: its text for text, CDATA, comments and processing
    /// instructions; the text of all its descendant text and CDATA nodes, in order, for an element or
    /// the document.
    public func stringValue(of index: Int) -> String {
        let node = nodes[index]
        switch node.kind {
        case .element, .document:
            var result = ""
            for descendant in (index + 1)..<node.end where nodes[descendant].isText {
                result += nodes[descendant].value
            }
            return result
        case .text, .cdata, .comment, .processingInstruction:
            return node.value
        }
    }
}

/// Bounds on what a document may make the parser hold.
public struct XMLLimits: Sendable, Hashable {
    /// Deepest element nesting accepted (the root element is depth 1).
    public var maxDepth: Int
    /// Largest input accepted, in UTF-8 bytes.
    public var maxBytes: Int

    /// Limits; the defaults suit request bodies.
    public init(maxDepth: Int = 512, maxBytes: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }
}

/// Why a text is not a well-formed XML document (or is beyond ``XMLLimits``).
public struct XMLParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line of the error.
    public var line: Int
    /// 1-based column (in Unicode scalars) of the error.
    public var column: Int
    /// What is wrong, and what was expected.
    public var message: String

    /// An error at a position.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line:column: message`.
    public var description: String { "XML \(line):\(column): \(message)" }

    /// The error for byte `offset` of `bytes`, counting lines and columns up to it.
    static func at(_ offset: Int, in bytes: [UInt8], _ message: String) -> XMLParseError {
        var line = 1
        var column = 1
        var index = 0
        let stop = min(offset, bytes.count)
        while index < stop {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 && byte != 0x0D {
                column += 1
            }
            index += 1
        }
        return XMLParseError(line: line, column: column, message: message)
    }
}
