/// A node an XPath expression selects: a node of the document, or one of an element's attributes.
public struct XPathNode: Sendable, Hashable, Comparable {
    /// Index of the node in ``XMLDocument/nodes`` (the element, for an attribute).
    public var index: Int
    /// Index of the attribute in the element's ``XMLNode/attributes``, or -1 for the node itself.
    public var attribute: Int

    /// Document order: an element, then its attributes, then its children.
    public static func < (left: XPathNode, right: XPathNode) -> Bool {
        left.index != right.index ? left.index < right.index : left.attribute < right.attribute
    }

    var isAttribute: Bool { attribute >= 0 }
}

/// The value of an XPath 1.0 expression.
enum XPathValue: Sendable {
    case nodes([XPathNode])
    case string(String)
    case number(Double)
    case boolean(Bool)
}

/// Why an evaluation stopped: a step budget spent, or a value used where a node-set was needed.
struct XPathEvaluationFailure: Error {
    var reason: String
}

extension XPathValue {
    static func number(from text: String) -> Double {
        let trimmed = text.trimmingXPathSpace()
        var digits = 0
        var dots = 0
        for (offset, byte) in trimmed.utf8.enumerated() {
            if byte >= 0x30 && byte <= 0x39 {
                digits += 1
            } else if byte == UInt8(ascii: ".") {
                dots += 1
            } else if !(byte == UInt8(ascii: "-") && offset == 0) {
                return .nan
            }
        }
        guard digits > 0, dots <= 1 else { return .nan }
        return Double(trimmed.hasSuffix(".") ? trimmed + "0" : trimmed) ?? .nan
    }

    static func string(from number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }
}

extension String {
    /// Without leading and trailing XPath whitespace (space, tab, CR, LF).
    func trimmingXPathSpace() -> String {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }

    /// Runs of whitespace as one space, trimmed (`normalize-space`).
    func normalizingXPathSpace() -> String {
        split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }
}
