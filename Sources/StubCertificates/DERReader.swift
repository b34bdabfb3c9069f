/// Why DER bytes could not be read: what was expected, at which offset.
struct DERError: Error, Equatable {
    let message: String
}

/// One DER element read back: its tag, its content and its whole encoding.
struct DERElement: Equatable {
    let tag: UInt8
    /// The content octets.
    let content: ArraySlice<UInt8>
    /// Tag, length and content: what a signature covers, or what is compared.
    let encoded: ArraySlice<UInt8>

    /// The elements inside a constructed element (SEQUENCE, SET, explicit context tag).
    func children() throws(DERError) -> [DERElement] {
        var reader = DERReader(content)
        var elements: [DERElement] = []
        while !reader.isAtEnd { elements.append(try reader.read()) }
        return elements
    }

    /// The one element inside an explicit context tag or an OCTET STRING that wraps DER.
    func inner() throws(DERError) -> DERElement {
        var reader = DERReader(content)
        let element = try reader.read()
        guard reader.isAtEnd else { throw DERError(message: "extra bytes after the element inside tag \(tag)") }
        return element
    }

    func expect(_ expected: UInt8, _ what: String) throws(DERError) -> DERElement {
        guard tag == expected else {
            throw DERError(message: "expected \(what) (tag 0x\(hex(expected))), found tag 0x\(hex(tag))")
        }
        return self
    }

    /// An INTEGER's value, when small.
    func smallInteger() throws(DERError) -> Int {
        _ = try expect(DER.Tag.integer, "an INTEGER")
        guard !content.isEmpty, content.count <= 4 else { throw DERError(message: "an INTEGER out of range") }
        return content.reduce(0) { $0 << 8 | Int($1) }
    }

    /// An OBJECT IDENTIFIER in dotted form.
    func oid() throws(DERError) -> String {
        _ = try expect(DER.Tag.oid, "an OBJECT IDENTIFIER")
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        for byte in content {
            guard value >> 56 == 0 else { throw DERError(message: "an OBJECT IDENTIFIER arc too large") }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                if arcs.isEmpty {
                    arcs += value < 80 ? [value / 40, value % 40] : [2, value - 80]
                } else {
                    arcs.append(value)
                }
                value = 0
            }
        }
        return arcs.map(String.init).joined(separator: ".")
    }

    /// A BIT STRING's bytes, when it has no unused bits.
    func bitStringBytes() throws(DERError) -> ArraySlice<UInt8> {
        _ = try expect(DER.Tag.bitString, "a BIT STRING")
        guard content.first == 0 else { throw DERError(message: "a BIT STRING with unused bits") }
        return content.dropFirst()
    }

    /// A UTCTime or GeneralizedTime (`Z` form) as seconds since 1970.
    func time() throws(DERError) -> Int64 {
        let text = Array(content)
        let digits: Int
        switch tag {
        case DER.Tag.utcTime: digits = 12
        case DER.Tag.generalizedTime: digits = 14
        default: throw DERError(message: "expected a UTCTime or GeneralizedTime, found tag 0x\(hex(tag))")
        }
        guard text.count == digits + 1, text.last == UInt8(ascii: "Z"),
            text.dropLast().allSatisfy({ (0x30...0x39).contains($0) })
        else { throw DERError(message: "a time not in the form YYMMDDHHMMSSZ") }
        func number(_ start: Int, _ count: Int) -> Int {
            text[start..<start + count].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        let offset = digits - 10
        var year = number(0, digits == 12 ? 2 : 4)
        if digits == 12 { year += year < 50 ? 2000 : 1900 }
        return CivilTime(
            year: year, month: number(offset, 2), day: number(offset + 2, 2), hour: number(offset + 4, 2),
            minute: number(offset + 6, 2), second: number(offset + 8, 2)
        ).secondsSince1970
    }
}

/// Reads DER elements one after another (definite lengths only, as DER has).
struct DERReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    var isAtEnd: Bool { position >= bytes.endIndex }

    mutating func read() throws(DERError) -> DERElement {
        let start = position
        guard position + 2 <= bytes.endIndex else { throw truncated(start) }
        let tag = bytes[position]
        guard tag & 0x1F != 0x1F else { throw DERError(message: "a multi-byte tag at offset \(start)") }
        var length = Int(bytes[position + 1])
        position += 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count >= 1, count <= 4 else { throw DERError(message: "a bad length at offset \(start)") }
            guard position + count <= bytes.endIndex else { throw truncated(start) }
            length = bytes[position..<position + count].reduce(0) { $0 << 8 | Int($1) }
            position += count
        }
        guard length <= bytes.endIndex - position else { throw truncated(start) }
        let content = bytes[position..<position + length]
        position += length
        return DERElement(tag: tag, content: content, encoded: bytes[start..<position])
    }

    private func truncated(_ offset: Int) -> DERError {
        DERError(message: "truncated DER at offset \(offset - bytes.startIndex)")
    }

    /// The one element `bytes` must hold, nothing after it.
    static func single(_ bytes: [UInt8]) throws(DERError) -> DERElement {
        var reader = DERReader(bytes)
        let element = try reader.read()
        guard reader.isAtEnd else { throw DERError(message: "bytes after the DER element") }
        return element
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}
