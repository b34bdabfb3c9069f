/// A non-recursive XML 1.0 parser with namespaces, to an ``XMLDocument``. Open elements are an explicit
/// stack bounded by ``XMLLimits/maxDepth``, so a deep document costs heap, not thread stack.
struct XMLParser {
    let bytes: [UInt8]
    let limits: XMLLimits
    var position = 0
    var nodes: [XMLNode] = []
    var rootIndex = -1
    /// Indices of the open elements, innermost last.
    var open: [Int] = []
    var namespaces = XMLNamespaces()
    /// Character data not yet stored as a text node.
    var pendingText: [UInt8] = []

    init(bytes: [UInt8], limits: XMLLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    func error(_ message: String, at offset: Int? = nil) -> XMLParseError {
        XMLParseError.at(offset ?? position, in: bytes, message)
    }

    var atEnd: Bool { position >= bytes.count }
    var current: UInt8 { bytes[position] }

    func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { buffer in
            for offset in 0..<count where bytes[position + offset] != buffer[offset] { return false }
            return true
        }
    }

    mutating func parse() throws(XMLParseError) {
        guard bytes.count <= limits.maxBytes else {
            throw error("document of \(bytes.count) bytes exceeds the limit of \(limits.maxBytes) bytes", at: 0)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        nodes.append(XMLNode(kind: .document, parent: -1, end: 0))
        if starts(with: "<?xml"), position + 5 < bytes.count, Self.isSpace(bytes[position + 5]) {
            try parseXMLDeclaration()
        }
        var sawDoctype = false
        while !atEnd {
            if open.isEmpty {
                skipSpaces()
                if atEnd { break }
                if starts(with: "<!--") {
                    try parseComment()
                } else if starts(with: "<?") {
                    try parseProcessingInstruction()
                } else if starts(with: "<!DOCTYPE") {
                    guard !sawDoctype, rootIndex < 0 else { throw error("a DOCTYPE must come once, before the root") }
                    sawDoctype = true
                    try skipDoctype()
                } else if current != UInt8(ascii: "<") || starts(with: "</") || starts(with: "<!") {
                    let place = rootIndex < 0 ? "before" : "after"
                    throw error("expected an element, comment or processing instruction \(place) the root element")
                } else if rootIndex >= 0 {
                    throw error("expected one root element, found a second one")
                } else {
                    rootIndex = nodes.count
                    try parseStartTag()
                }
            } else if current == UInt8(ascii: "<") {
                try flushText()
                if starts(with: "</") {
                    try parseEndTag()
                } else if starts(with: "<!--") {
                    try parseComment()
                } else if starts(with: "<![CDATA[") {
                    try parseCDATA()
                } else if starts(with: "<?") {
                    try parseProcessingInstruction()
                } else if starts(with: "<!") {
                    throw error("expected a comment or CDATA section after '<!'")
                } else {
                    try parseStartTag()
                }
            } else if current == UInt8(ascii: "&") {
                let expanded = try nextReference()
                pendingText.append(contentsOf: expanded.utf8)
            } else {
                if starts(with: "]]>") { throw error("']]>' is not allowed in character data") }
                let byte = try nextCharacter()
                pendingText.append(byte)
            }
        }
        if let innermost = open.last {
            throw error("unexpected end of document: <\(nodes[innermost].name.qualifiedName)> is not closed")
        }
        guard rootIndex >= 0 else { throw error("expected a root element, found none") }
        nodes[0].end = nodes.count
    }

    /// Appends a node under the innermost open element (or the document) and returns its index.
    mutating func append(_ node: XMLNode) -> Int {
        let index = nodes.count
        let parent = open.last ?? 0
        var node = node
        node.parent = parent
        node.end = index + 1
        nodes.append(node)
        nodes[parent].children.append(index)
        return index
    }

    mutating func flushText() throws(XMLParseError) {
        guard !pendingText.isEmpty else { return }
        _ = append(XMLNode(kind: .text, value: String(decoding: pendingText, as: UTF8.self), parent: 0, end: 0))
        pendingText.removeAll(keepingCapacity: true)
    }

    mutating func parseStartTag() throws(XMLParseError) {
        let tagStart = position
        position += 1
        let qualified = try readName()
        var raw: [(name: String, value: String, offset: Int)] = []
        var selfClosing = false
        while true {
            let spaced = skipSpaces()
            guard !atEnd else { throw error("unexpected end of document inside the tag <\(qualified)>") }
            if current == UInt8(ascii: ">") {
                position += 1
                break
            }
            if starts(with: "/>") {
                position += 2
                selfClosing = true
                break
            }
            guard spaced else { throw error("expected whitespace, '>' or '/>' in the tag <\(qualified)>") }
            let (offset, name, value) = try readNameAndValue("attribute ")
            if raw.contains(where: { $0.name == name }) {
                throw error("attribute '\(name)' appears twice on <\(qualified)>", at: offset)
            }
            raw.append((name, value, offset))
        }
        guard open.count < limits.maxDepth else {
            throw error("elements nested deeper than the limit of \(limits.maxDepth)", at: tagStart)
        }
        namespaces.push()
        var node = XMLNode(kind: .element, parent: 0, end: 0)
        node.attributes = try resolveAttributes(raw)
        node.name = try resolve(qualified, isAttribute: false, at: tagStart + 1)
        let index = append(node)
        if selfClosing {
            namespaces.pop()
        } else {
            open.append(index)
        }
    }

    mutating func parseEndTag() throws(XMLParseError) {
        let tagStart = position
        position += 2
        let name = try readName()
        skipSpaces()
        guard !atEnd, current == UInt8(ascii: ">") else { throw error("expected '>' to end the tag </\(name)>") }
        position += 1
        guard let index = open.last else { throw error("end tag </\(name)> with no open element", at: tagStart) }
        let expected = nodes[index].name.qualifiedName
        guard expected == name else {
            throw error("expected the end tag </\(expected)>, found </\(name)>", at: tagStart)
        }
        open.removeLast()
        namespaces.pop()
        nodes[index].end = nodes.count
    }
}
