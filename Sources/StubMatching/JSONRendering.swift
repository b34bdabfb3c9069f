import StubModel

/// The text forms of JSON values that WireMock (Java: json-smart, Jackson) produces, so that string
/// matchers applied to JSONPath results see the same text as in WireMock 2.35.
package enum JSONRendering {
    /// What Java's `String.valueOf` gives for a value Jayway JsonPath returns: strings raw, numbers as
    /// Java prints them (`1.50` → `1.5`, `1e20` → `1.0E20`), objects as `Map.toString` (`{x=1, y=a}`),
    /// arrays as compact JSON (json-smart's `JSONArray`). Verified against WireMock 2.35.1.
    static func javaString(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(text): return javaNumber(text)
        case let .string(s): return s
        case .array:
            var out = ""
            writeCompact(value, into: &out)
            return out
        case let .object(members):
            return "{" + members.map { $0.key + "=" + javaString($0.value) }.joined(separator: ", ") + "}"
        }
    }

    /// Jackson's default pretty printer, which WireMock uses for objects returned by a JSONPath:
    /// `{\n  "b" : 1\n}`, arrays inline `[ 1, 2 ]`, empty `{ }` and `[ ]`.
    /// Verified against WireMock 2.35.1: `$.a` with `equalTo "{\n  \"b\" : 1\n}"` matches `{"a":{"b":1}}`.
    package static func jacksonPretty(_ value: JSONValue) -> String {
        var out = ""
        writePretty(value, level: 0, into: &out)
        return out
    }

    /// Jackson's compact JSON (`JsonNode.toString`, `writeValueAsString`): no whitespace, numbers as
    /// Java prints them.
    package static func javaCompact(_ value: JSONValue) -> String {
        var out = ""
        writeCompact(value, into: &out)
        return out
    }

    /// Java's `Double.toString` for decimals and exponents (json-smart reads them as doubles); integers
    /// are kept as written.
    package static func javaNumber(_ text: String) -> String {
        guard text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
            return text == "-0" ? "0" : text
        }
        guard let d = Double(text), d.isFinite else { return text }
        return javaDouble(d)
    }

    /// `Double.toString` (shortest digits): plain in [10⁻³, 10⁷), else `d.dddE±n`.
    package static func javaDouble(_ d: Double) -> String {
        if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
        let sign = d < 0 ? "-" : ""
        var (digits, point) = decimalDigits(abs(d))
        let magnitude = abs(d)
        if magnitude >= 1e-3, magnitude < 1e7 {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
            if point >= digits.count {
                return sign + digits + String(repeating: "0", count: point - digits.count) + ".0"
            }
            let split = digits.index(digits.startIndex, offsetBy: point)
            return sign + digits[..<split] + "." + digits[split...]
        }
        let first = digits.removeFirst()
        return sign + String(first) + "." + (digits.isEmpty ? "0" : digits) + "E" + String(point - 1)
    }

    /// Shortest round-trip digits of a positive double and the position of the decimal point:
    /// value = 0.DIGITS × 10^point.
    private static func decimalDigits(_ d: Double) -> (digits: String, point: Int) {
        let text = "\(d)"
        var mantissa = Substring(text), exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        var digits = "", point = 0
        if let dot = mantissa.firstIndex(of: ".") {
            digits = String(mantissa[..<dot]) + String(mantissa[mantissa.index(after: dot)...])
            point = mantissa.distance(from: mantissa.startIndex, to: dot)
        } else {
            digits = String(mantissa)
            point = digits.count
        }
        point += exponent
        while digits.first == "0", digits.count > 1 { digits.removeFirst(); point -= 1 }
        while digits.last == "0", digits.count > 1 { digits.removeLast() }
        return (digits, point)
    }

    /// Compact JSON with numbers as Java prints them.
    private static func writeCompact(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(text): out += javaNumber(text)
        case let .string(s): writeString(s, into: &out)
        case let .array(items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                writeCompact(item, into: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                writeString(member.key, into: &out)
                out += ":"
                writeCompact(member.value, into: &out)
            }
            out += "}"
        }
    }

    private static func writePretty(_ value: JSONValue, level: Int, into out: inout String) {
        switch value {
        case let .array(items):
            if items.isEmpty { out += "[ ]"; return }
            out += "[ "
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                writePretty(item, level: level, into: &out)
            }
            out += " ]"
        case let .object(members):
            if members.isEmpty { out += "{ }"; return }
            out += "{"
            for (i, member) in members.enumerated() {
                out += i > 0 ? ",\n" : "\n"
                out += String(repeating: "  ", count: level + 1)
                writeString(member.key, into: &out)
                out += " : "
                writePretty(member.value, level: level + 1, into: &out)
            }
            out += "\n" + String(repeating: "  ", count: level) + "}"
        case let .number(text):
            out += javaNumber(text)
        case .null, .bool, .string:
            writeCompact(value, into: &out)
        }
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += JSONValue.escapedString(s)
    }
}
