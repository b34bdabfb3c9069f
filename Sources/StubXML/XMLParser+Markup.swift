/// Comments, processing instructions, CDATA sections, the XML declaration and the DOCTYPE.
extension XMLParser {
    /// Reads up to `terminator`, checking characters, and moves past it; the text before it.
    private mutating func read(until terminator: StaticString, what: String) throws(XMLParseError) -> String {
        let start = position
        var text: [UInt8] = []
        while !starts(with: terminator) {
            guard !atEnd else { throw error("unexpected end of document inside \(what)", at: start) }
            let byte = try nextCharacter()
            text.append(byte)
        }
        position += terminator.utf8CodeUnitCount
        return String(decoding: text, as: UTF8.self)
    }

    mutating func parseComment() throws(XMLParseError) {
        let start = position
        position += 4
        let text = try read(until: "-->", what: "a comment")
        if text.contains("--") || text.hasSuffix("-") { throw error("'--' is not allowed inside a comment", at: start) }
        _ = append(XMLNode(kind: .comment, value: text, parent: 0, end: 0))
    }

    mutating func parseCDATA() throws(XMLParseError) {
        position += 9
        let text = try read(until: "]]>", what: "a CDATA section")
        _ = append(XMLNode(kind: .cdata, value: text, parent: 0, end: 0))
    }

    mutating func parseProcessingInstruction() throws(XMLParseError) {
        let start = position
        position += 2
        let target = try readName()
        if target.lowercased() == "xml" {
            throw error("an XML declaration is only allowed at the very start of the document", at: start)
        }
        if target.contains(":") { throw error("a processing instruction target may not contain ':'", at: start + 2) }
        let data: String
        if starts(with: "?>") {
            position += 2
            data = ""
        } else {
            guard skipSpaces() else { throw error("expected whitespace or '?>' after '<?\(target)'") }
            data = try read(until: "?>", what: "a processing instruction")
        }
        _ = append(
            XMLNode(kind: .processingInstruction, name: XMLName(localName: target), value: data, parent: 0, end: 0))
    }

    /// `<?xml version="1.x" encoding="…" standalone="…"?>`: checked, not stored.
    mutating func parseXMLDeclaration() throws(XMLParseError) {
        let start = position
        position += 5
        var names: [String] = []
        while true {
            let spaced = skipSpaces()
            if starts(with: "?>") {
                position += 2
                break
            }
            guard spaced else { throw error("expected whitespace or '?>' in the XML declaration") }
            let (offset, name, value) = try readNameAndValue()
            let order = ["version", "encoding", "standalone"]
            guard let rank = order.firstIndex(of: name), names.allSatisfy({ order.firstIndex(of: $0)! < rank }) else {
                throw error(
                    "unexpected '\(name)' in the XML declaration (expected version, encoding, standalone)", at: offset)
            }
            if name == "version" && !value.hasPrefix("1.") {
                throw error("unsupported XML version '\(value)', expected 1.0", at: offset)
            }
            names.append(name)
        }
        guard names.first == "version" else { throw error("the XML declaration must start with version", at: start) }
    }

    /// Skips `<!DOCTYPE …>`. An internal subset may not declare entities: they are not expanded, and an
    /// entity expanding to others is how a small document becomes a huge one.
    mutating func skipDoctype() throws(XMLParseError) {
        let start = position
        position += 9
        var quote: UInt8? = nil
        var inSubset = false
        while true {
            guard !atEnd else { throw error("unexpected end of document inside the DOCTYPE", at: start) }
            let byte = current
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if inSubset && starts(with: "<!ENTITY") {
                throw error("entity declarations in a DOCTYPE are not supported (they would not be expanded)")
            } else if !inSubset && byte == UInt8(ascii: ">") {
                position += 1
                return
            }
            position += 1
        }
    }
}
