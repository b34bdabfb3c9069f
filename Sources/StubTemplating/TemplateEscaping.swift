import StubHTTP

/// The text encodings templates use: Handlebars' HTML escaping and the `urlEncode` / `base64` helpers.
enum TemplateEscaping {
    /// Appends `text` HTML-escaped as Handlebars.java does for `{{…}}` (WireMock 2.35.1):
    /// `&` `<` `>` `"` `'` `` ` `` `=` become `&amp;` `&lt;` `&gt;` `&quot;` `&#x27;` `&#x60;` `&#x3D;`.
    static func appendHTMLEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#x27;".utf8)
            case UInt8(ascii: "`"): out.append(contentsOf: "&#x60;".utf8)
            case UInt8(ascii: "="): out.append(contentsOf: "&#x3D;".utf8)
            default: out.append(byte)
            }
        }
    }

    /// How many bytes ``appendHTMLEscaped(_:to:)`` appends for `text`, without building them.
    static func htmlEscapedCount(_ text: String) -> Int {
        var count = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): count += 5
            case UInt8(ascii: "<"), UInt8(ascii: ">"): count += 4
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"), UInt8(ascii: "="): count += 6
            default: count += 1
            }
        }
        return count
    }

    /// Java's `URLEncoder.encode(text, UTF-8)`: letters, digits and `.-*_` stay, a space becomes `+`,
    /// every other byte `%XX` (upper-case hex).
    static func urlEncode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"):
                out.append(byte)
            case UInt8(ascii: " "):
                out.append(UInt8(ascii: "+"))
            default:
                out.append(UInt8(ascii: "%"))
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Java's `URLDecoder.decode`: `+` is a space, `%XX` a byte; a malformed escape is kept as written
    /// (WireMock answers 500 there).
    static func urlDecode(_ text: String) -> String {
        PercentDecoding.decode(text, plusAsSpace: true)
    }

    /// Base64 of the text's UTF-8, with or without `=` padding.
    static func base64Encode(_ text: String, padding: Bool) -> String {
        let encoded = Base64.encode(Array(text.utf8))
        return padding ? encoded : String(encoded.prefix { $0 != "=" })
    }

    /// The UTF-8 text of base64 `text`; empty when it is not base64.
    static func base64Decode(_ text: String) -> String {
        guard let bytes = try? Base64.decode(text) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Java's `String.trim`: drops every character up to U+0020 at both ends.
    static func javaTrim(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }),
            let last = scalars.lastIndex(where: { $0.value > 0x20 })
        else { return "" }
        return String(scalars[first...last])
    }
}
