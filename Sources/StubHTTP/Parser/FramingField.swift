/// The header fields the parser itself acts on, recognised from their name bytes without generic String work.
enum FramingField: UInt8 {
    case contentLength = 1
    case transferEncoding = 2
    case expect = 4
    /// Counted by the parser (RFC 9112 §3.2), not looked at by ``BodyFraming``.
    case host = 8

    /// The raw values of the fields ``BodyFraming`` reads.
    static let bodyFramingMask: UInt8 = contentLength.rawValue | transferEncoding.rawValue | expect.rawValue

    /// The field a name denotes (any ASCII case), or nil for every other field.
    @inline(__always)
    static func classify(_ name: UnsafeBufferPointer<UInt8>) -> FramingField? {
        switch name.count {
        case 14: ASCIIBytes.equalsIgnoringCase(name, "content-length") ? .contentLength : nil
        case 17: ASCIIBytes.equalsIgnoringCase(name, "transfer-encoding") ? .transferEncoding : nil
        case 6: ASCIIBytes.equalsIgnoringCase(name, "expect") ? .expect : nil
        case 4: ASCIIBytes.equalsIgnoringCase(name, "host") ? .host : nil
        default: nil
        }
    }
}

/// ASCII helpers on raw bytes.
enum ASCIIBytes {
    /// Whether `bytes` equals `lowercase` (which must be lower-case ASCII), ignoring ASCII case in `bytes`.
    @inline(__always)
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for i in 0..<bytes.count {
            let c = bytes[i]
            let lower = c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c
            if lower != expected[i] { return false }
        }
        return true
    }

    /// `bytes` without leading and trailing SP and HTAB.
    @inline(__always)
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0, end = bytes.count
        while start < end && ByteClass.isWhitespace(bytes[start]) { start += 1 }
        while end > start && ByteClass.isWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Calls `body` with each comma-separated element of `bytes`, trimmed (empty elements included).
    @inline(__always)
    static func forEachListElement<E: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> Void
    ) throws(E) {
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: ",") {
            try body(trimmed(UnsafeBufferPointer(rebasing: bytes[start..<i])))
            start = i + 1
        }
    }
}
