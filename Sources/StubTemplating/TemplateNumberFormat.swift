/// Handlebars.java's `numberFormat` as WireMock 2.35.1 runs it, with Java's default (English) symbols:
/// `{{numberFormat 1234.5}}` is `1,234.5`; styles `integer`, `percent`, `currency` (`¤1,234.50`) or a
/// `DecimalFormat` pattern (`'#,##0.00'`, `'000.0'`, `'0.#%'`, literal text around it). Rounds half even
/// on the value's shortest decimal form (Java rounds the exact binary value: `2.675` with two decimals is
/// `2.68` here and `2.67` in Java).
struct TemplateNumberFormat: Equatable {
    var prefix = ""
    var suffix = ""
    var minimumIntegerDigits = 1
    var minimumFractionDigits = 0
    var maximumFractionDigits = 3
    /// Digits per group (`,`), 0 for none.
    var grouping = 3
    var multiplier = 1

    /// The style `integer`, `percent`, `currency`, or a pattern; `nil` is the default number style.
    init() {}

    init(style: String?) {
        self.init()
        switch style {
        case nil: break
        case "integer"?: maximumFractionDigits = 0
        case "percent"?: (multiplier, suffix, maximumFractionDigits) = (100, "%", 0)
        case "currency"?: (prefix, minimumFractionDigits, maximumFractionDigits) = ("¤", 2, 2)
        case let pattern?: self = TemplateNumberFormat(pattern: pattern)
        }
    }

    private init(pattern: String) {
        self.init()
        let positive = pattern.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let isNumberCharacter: (Character) -> Bool = { "#0,.".contains($0) }
        let start = positive.firstIndex(where: isNumberCharacter) ?? positive.endIndex
        let end = positive[start...].firstIndex { !isNumberCharacter($0) } ?? positive.endIndex
        prefix = String(positive[..<start])
        suffix = String(positive[end...])
        if (prefix + suffix).contains("%") { multiplier = 100 }
        let number = positive[start..<end]
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        minimumIntegerDigits = integer.filter { $0 == "0" }.count
        // Java reads `#.##` as `#0.##`, and a pattern without digits as `0`.
        if number.isEmpty || (!number.contains("0") && parts.count > 1) { minimumIntegerDigits = 1 }
        grouping = integer.lastIndex(of: ",").map { integer[integer.index(after: $0)...].count } ?? 0
        minimumFractionDigits = fraction.filter { $0 == "0" }.count
        maximumFractionDigits = fraction.filter { $0 == "0" || $0 == "#" }.count
    }

    /// `text`, a number as Java prints it (`12`, `-1.5`, `1.0E20`), formatted.
    func format(_ text: String) -> String? {
        guard let (sign, digits, start) = Self.decimal(text) else { return nil }
        var point = start
        if multiplier == 100 { point += 2 }
        // Integer and fraction digits, then rounded half even to the maximum fraction digits.
        var integer =
            point > 0 ? Array(digits.prefix(point)) + Array(repeating: 0, count: max(0, point - digits.count)) : []
        var fraction = point < 0 ? Array(repeating: 0, count: -point) + digits : Array(digits.dropFirst(max(point, 0)))
        if fraction.count > maximumFractionDigits {
            let dropped = fraction[maximumFractionDigits...]
            fraction = Array(fraction.prefix(maximumFractionDigits))
            let first = dropped.first ?? 0
            let beyond = dropped.dropFirst().contains { $0 != 0 }
            let last = fraction.last ?? integer.last ?? 0
            if first > 5 || (first == 5 && (beyond || last % 2 == 1)) {
                var all = integer + fraction
                var index = all.count - 1
                while index >= 0, all[index] == 9 {
                    all[index] = 0
                    index -= 1
                }
                if index >= 0 { all[index] += 1 } else { all.insert(1, at: 0) }
                integer = Array(all.prefix(all.count - fraction.count))
                fraction = Array(all.suffix(fraction.count))
            }
        }
        while fraction.count > minimumFractionDigits, fraction.last == 0 { fraction.removeLast() }
        if fraction.count < minimumFractionDigits {
            fraction += Array(repeating: 0, count: minimumFractionDigits - fraction.count)
        }
        while integer.count > max(minimumIntegerDigits, 0), integer.first == 0 { integer.removeFirst() }
        if integer.count < minimumIntegerDigits {
            integer = Array(repeating: 0, count: minimumIntegerDigits - integer.count) + integer
        }
        // With no digits at all, Java writes a zero.
        if integer.isEmpty && fraction.isEmpty { integer = [0] }
        // A negative value that rounds to zero keeps its sign, as in Java (`-0`).
        var out = sign ? "-" + prefix : prefix
        for (index, digit) in integer.enumerated() {
            let left = integer.count - index
            if grouping > 0, index > 0, left % grouping == 0 { out += "," }
            out += String(digit)
        }
        if !fraction.isEmpty { out += "." + fraction.map(String.init).joined() }
        return out + suffix
    }

    /// Sign, digits, and where the point goes among them.
    private static func decimal(_ text: String) -> (Bool, [Int], Int)? {
        var rest = Substring(text)
        let negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        var exponent = 0
        if let e = rest.firstIndex(where: { $0 == "E" || $0 == "e" }) {
            guard let value = Int(rest[rest.index(after: e)...]), abs(value) < 400 else { return nil }
            exponent = value
            rest = rest[..<e]
        }
        let point = rest.firstIndex(of: ".").map { rest.distance(from: rest.startIndex, to: $0) } ?? rest.count
        let digits = rest.filter { $0 != "." }.compactMap(\.wholeNumberValue)
        guard digits.count == rest.filter({ $0 != "." }).count, !digits.isEmpty else { return nil }
        return (negative, digits, point + exponent)
    }
}

extension TemplateEvaluator {
    /// `numberFormat value [style] [locale]`: only numbers are formatted (text gives nothing, as in WireMock).
    @inline(never)
    mutating func numberFormat(_ value: TemplateValue, style: TemplateValue, _ call: TemplateCall) -> TemplateValue {
        let text: String
        switch value {
        case .integer, .double, .json(.number): text = value.text
        case .missing, .string, .bool, .json, .values, .list, .date, .map, .xml, .root, .request, .path, .fields, .body:
            return .missing
        }
        var format = TemplateNumberFormat(style: call.arguments.count > 1 ? style.text : nil)
        for (name, expression) in call.hash {
            let option = evaluate(expression)
            switch name {
            case "maximumFractionDigits": format.maximumFractionDigits = min(max(Int(option.text) ?? 0, 0), 340)
            case "minimumFractionDigits": format.minimumFractionDigits = min(max(Int(option.text) ?? 0, 0), 340)
            case "minimumIntegerDigits": format.minimumIntegerDigits = min(max(Int(option.text) ?? 0, 0), 340)
            case "groupingUsed": if option.isFalseOption { format.grouping = 0 }
            default: return fail("numberFormat: option '\(name)' is not supported")
            }
        }
        format.maximumFractionDigits = max(format.maximumFractionDigits, format.minimumFractionDigits)
        return format.format(text).map(TemplateValue.string) ?? .missing
    }
}
