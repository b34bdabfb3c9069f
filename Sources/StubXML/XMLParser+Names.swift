/// Names, namespace resolution and attributes.
extension XMLParser {
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x3A
            || byte >= 0x80
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }

    /// Skips whitespace; whether there was any.
    @discardableResult
    mutating func skipSpaces() -> Bool {
        let start = position
        while !atEnd, Self.isSpace(current) { position += 1 }
        return position > start
    }

    mutating func readName() throws(XMLParseError) -> String {
        guard !atEnd else { throw error("unexpected end of document, expected a name") }
        guard Self.isNameStart(current) else { throw error("expected a name, found \(describe(current))") }
        let start = position
        while !atEnd, Self.isNameByte(current) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    /// Splits `p:local` and resolves the prefix; an unprefixed attribute has no namespace.
    func resolve(_ qualified: String, isAttribute: Bool, at offset: Int) throws(XMLParseError) -> XMLName {
        let parts = qualified.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty }) else {
            throw error("'\(qualified)' is not a valid namespace-qualified name", at: offset)
        }
        guard parts.count == 2 else {
            if qualified == "xmlns" && isAttribute {
                return XMLName(localName: qualified, namespaceURI: XMLNamespaces.xmlnsURI)
            }
            return XMLName(localName: qualified, namespaceURI: isAttribute ? nil : namespaces.resolve(""))
        }
        let prefix = String(parts[0])
        guard let uri = namespaces.resolve(prefix) else {
            throw error("namespace prefix '\(prefix)' of '\(qualified)' is not declared", at: offset)
        }
        return XMLName(prefix: prefix, localName: String(parts[1]), namespaceURI: uri)
    }

    /// Declares the `xmlns` attributes in the innermost frame, then resolves every attribute name.
    mutating func resolveAttributes(_ raw: [(name: String, value: String, offset: Int)]) throws(XMLParseError)
        -> [XMLAttribute]
    {
        for attribute in raw where attribute.name == "xmlns" || attribute.name.hasPrefix("xmlns:") {
            let prefix = attribute.name == "xmlns" ? "" : String(attribute.name.dropFirst(6))
            if prefix == "xmlns" || (prefix == "xml") != (attribute.value == XMLNamespaces.xmlURI)
                || (prefix != "xml" && attribute.value == XMLNamespaces.xmlnsURI)
            {
                throw error("'\(attribute.name)' may not bind that namespace", at: attribute.offset)
            }
            if !prefix.isEmpty && attribute.value.isEmpty {
                throw error(
                    "'\(attribute.name)' must not be empty (prefixes cannot be undeclared)", at: attribute.offset)
            }
            namespaces.declare(prefix, attribute.value)
        }
        var attributes: [XMLAttribute] = []
        attributes.reserveCapacity(raw.count)
        for attribute in raw {
            let name = try resolve(attribute.name, isAttribute: true, at: attribute.offset)
            if attributes.contains(where: { $0.name.isExpandedEqual(to: name) }) {
                throw error(
                    "attribute '\(attribute.name)' duplicates another in the same namespace", at: attribute.offset)
            }
            attributes.append(XMLAttribute(name: name, value: attribute.value))
        }
        return attributes
    }

    /// `name = "value"`, white space allowed around `=` (an attribute, or a pseudo-attribute of the XML
    /// declaration): its offset, name and value. `what` comes before the name in the error for a missing `=`
    /// (`attribute ` gives `expected '=' after attribute 'id'`).
    mutating func readNameAndValue(_ what: String = "") throws(XMLParseError)
        -> (offset: Int, name: String, value: String)
    {
        let offset = position
        let name = try readName()
        skipSpaces()
        guard !atEnd, current == UInt8(ascii: "=") else { throw error("expected '=' after \(what)'\(name)'") }
        position += 1
        skipSpaces()
        return (offset, name, try readAttributeValue())
    }

    /// A quoted attribute value, references expanded and whitespace characters turned into spaces.
    mutating func readAttributeValue() throws(XMLParseError) -> String {
        guard !atEnd, current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") else {
            throw error("expected a quoted attribute value")
        }
        let quote = current
        position += 1
        var value: [UInt8] = []
        while true {
            guard !atEnd else { throw error("unexpected end of document inside an attribute value") }
            let byte = current
            if byte == quote {
                position += 1
                return String(decoding: value, as: UTF8.self)
            }
            if byte == UInt8(ascii: "<") { throw error("'<' is not allowed in an attribute value") }
            if byte == UInt8(ascii: "&") {
                let expanded = try nextReference()
                value.append(contentsOf: expanded.utf8)
            } else if Self.isSpace(byte) {
                if byte == 0x0D, position + 1 < bytes.count, bytes[position + 1] == 0x0A { position += 1 }
                value.append(0x20)
                position += 1
            } else {
                let byte = try nextCharacter()
                value.append(byte)
            }
        }
    }
}
