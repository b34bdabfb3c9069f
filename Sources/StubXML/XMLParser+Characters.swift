/// Characters and references.
extension XMLParser {
    /// The byte at `position` (a line break normalised to LF), moving past it; refuses characters XML forbids.
    mutating func nextCharacter() throws(XMLParseError) -> UInt8 {
        let byte = current
        if byte == 0x0D {
            position += 1
            if !atEnd, current == 0x0A { position += 1 }
            return 0x0A
        }
        if byte < 0x20 && byte != 0x09 && byte != 0x0A {
            throw error("character 0x\(String(byte, radix: 16)) is not allowed in XML")
        }
        // U+FFFE and U+FFFF (EF BF BE / EF BF BF) are not XML characters.
        if byte == 0xEF, position + 2 < bytes.count, bytes[position + 1] == 0xBF, bytes[position + 2] >= 0xBE {
            throw error("character U+FFF\(bytes[position + 2] == 0xBE ? "E" : "F") is not allowed in XML")
        }
        position += 1
        return byte
    }

    /// Expands `&name;` or `&#n;` / `&#xh;` at `position`, moving past it.
    mutating func nextReference() throws(XMLParseError) -> String {
        let start = position
        position += 1
        guard let end = bytes[position...].prefix(16).firstIndex(of: UInt8(ascii: ";")) else {
            throw error("expected a reference such as &amp; or &#38; ending in ';' after '&'", at: start)
        }
        let name = String(decoding: bytes[position..<end], as: UTF8.self)
        position = end + 1
        let scalar: Unicode.Scalar?
        switch name {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "apos": scalar = "'"
        case "quot": scalar = "\""
        default:
            if name.hasPrefix("#x") {
                scalar = Self.characterReference(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                scalar = Self.characterReference(name.dropFirst(), radix: 10)
            } else {
                throw error("undefined entity '&\(name);' (only lt, gt, amp, apos and quot are known)", at: start)
            }
            guard scalar != nil else {
                throw error("'&\(name);' is not a reference to a character allowed in XML", at: start)
            }
        }
        guard let scalar else { return "" }
        return String(Character(scalar))
    }

    private static func characterReference(_ digits: Substring, radix: Int) -> Unicode.Scalar? {
        guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: radix),
            let scalar = Unicode.Scalar(value)
        else { return nil }
        let allowed =
            value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value <= 0xD7FF)
            || (value >= 0xE000 && value <= 0xFFFD) || value >= 0x10000
        return allowed ? scalar : nil
    }
}
