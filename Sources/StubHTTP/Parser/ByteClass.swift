/// Byte classes of RFC 9110/9112, as small inlinable predicates for the parser's hot loops.
enum ByteClass {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let colon = UInt8(ascii: ":")

    /// `tchar` (RFC 9110 §5.6.2): the characters of a token such as a method or a field name.
    @inline(__always)
    static func isTokenChar(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// A byte allowed in a field value: HTAB, SP, VCHAR and obs-text (0x80–0xFF). Every other CTL (NUL, CR,
    /// LF, DEL, …) is not.
    @inline(__always)
    static func isFieldValueByte(_ c: UInt8) -> Bool {
        (c >= 0x20 && c != 0x7F) || c == tab
    }

    /// A byte allowed in a request target: VCHAR (0x21–0x7E). No space, CTL, NUL or non-ASCII byte.
    @inline(__always)
    static func isTargetByte(_ c: UInt8) -> Bool {
        c >= 0x21 && c <= 0x7E
    }

    /// Optional whitespace (OWS/BWS): SP or HTAB.
    @inline(__always)
    static func isWhitespace(_ c: UInt8) -> Bool {
        c == space || c == tab
    }

    @inline(__always)
    static func isDigit(_ c: UInt8) -> Bool {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
    }

    @inline(__always)
    static func isAlpha(_ c: UInt8) -> Bool {
        (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
    }

    /// The value of a hexadecimal digit, or nil.
    @inline(__always)
    static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(c &- UInt8(ascii: "a")) &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(c &- UInt8(ascii: "A")) &+ 10
        default: nil
        }
    }

    /// Renders a byte for an error message, e.g. `0x00`.
    static func describe(_ c: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return "0x" + String(decoding: [digits[Int(c >> 4)], digits[Int(c & 0x0F)]], as: UTF8.self)
    }
}
