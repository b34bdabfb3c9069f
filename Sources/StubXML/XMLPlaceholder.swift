import StubRegex

/// An XMLUnit placeholder in an expected text or attribute value: `${xmlunit.ignore}`,
/// `${xmlunit.isNumber}`, `${xmlunit.matchesRegex(…)}`. Any other keyword (`isDateTime`, `isInRange`, a
/// typo) never matches.
enum XMLPlaceholder: Sendable {
    case ignore
    case isNumber
    case matchesRegex(JavaRegex)
    case unsupported(String)

    /// Step budget of one `matchesRegex` evaluation.
    static let stepBudget = 1_000_000

    /// Whether `value` (trimmed) satisfies the placeholder.
    func accepts(_ value: String) -> Bool {
        switch self {
        case .ignore: true
        case .isNumber: Self.isNumber(value)
        case .matchesRegex(let regex): regex.wholeMatch(value, stepBudget: Self.stepBudget) == .matched
        case .unsupported: false
        }
    }

    /// A decimal number as XMLUnit's `isNumber` takes it: sign, digits with an optional fraction, an
    /// optional exponent (no `NaN`, hexadecimal or Java type suffixes).
    static func isNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            bytes = bytes.dropFirst()
        }
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        let whole = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(whole.count)
        var fraction = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fraction)
        }
        guard whole.count + fraction > 0 else { return false }
        if let first = bytes.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
            let exponent = bytes.prefix(while: isDigit).count
            guard exponent > 0 else { return false }
            bytes = bytes.dropFirst(exponent)
        }
        return bytes.isEmpty
    }
}

/// Recognises placeholders with the configured delimiters.
struct XMLPlaceholderSyntax: Sendable {
    private let pattern: JavaRegex
    /// Index (0-based in the groups returned) of the keyword group.
    private let keywordGroup: Int

    init(_ options: XMLComparisonOptions) throws(XMLOptionError) {
        let open = options.openingDelimiterRegex ?? #"\$\{"#
        let close = options.closingDelimiterRegex ?? #"\}"#
        let openGroups: Int
        do {
            openGroups = try JavaRegex(open).program.groupCount
            _ = try JavaRegex(close)
            pattern = try JavaRegex(#"\s*(?:"# + open + #")\s*xmlunit\.(\w+)(?:\((.*)\))?\s*(?:"# + close + #")\s*"#)
        } catch {
            throw XMLOptionError("placeholderOpeningDelimiterRegex or placeholderClosingDelimiterRegex: \(error)")
        }
        keywordGroup = openGroups
    }

    /// The placeholder `text` is, or `nil` when it is not one.
    func placeholder(in text: String) throws(XMLOptionError) -> XMLPlaceholder? {
        guard let groups = pattern.wholeMatchGroups(text, stepBudget: XMLPlaceholder.stepBudget),
            let keyword = groups[keywordGroup]
        else { return nil }
        let argument = groups[keywordGroup + 1]
        switch keyword {
        case "ignore": return .ignore
        case "isNumber": return .isNumber
        case "matchesRegex":
            do {
                return .matchesRegex(try JavaRegex(argument ?? ""))
            } catch {
                throw XMLOptionError("${xmlunit.matchesRegex(\(argument ?? ""))}: \(error)")
            }
        default: return .unsupported(keyword)
        }
    }
}
