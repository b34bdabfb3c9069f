import StubMatching

/// WireMock's `math`: `{{math 1 '+' 2}}` over Java `BigDecimal`s (integers exact, decimals as
/// `BigDecimal.valueOf(double)`, text parsed, unreadable text 0). A result with no decimal places prints
/// as an integer, others as Java prints a `double` (`1.5 '*' 2` is `3.0`); `/` keeps the left operand's
/// scale, rounding half up (`10 '/' 4` is `3`).
extension TemplateEvaluator {
    /// `numberFormat` or `math`, over already evaluated `arguments`.
    @inline(never)
    mutating func numberHelper(_ helper: NumberHelper, _ arguments: [TemplateValue], _ call: TemplateCall)
        -> TemplateValue
    {
        func argument(_ index: Int) -> TemplateValue { arguments.indices.contains(index) ? arguments[index] : .missing }
        switch helper {
        case .numberFormat:
            return numberFormat(argument(0), style: argument(1), call)
        case .math:
            guard arguments.count == 3 else {
                return .string(
                    "[ERROR: All maths functions require two operands and an operator as parameters e.g. 3 '+' 2]")
            }
            return math(argument(0), argument(1).text, argument(2))
        }
    }

    @inline(never)
    mutating func math(_ left: TemplateValue, _ operation: String, _ right: TemplateValue) -> TemplateValue {
        if case .missing = left { return .missing }
        if case .missing = right { return .missing }
        guard ["+", "-", "*", "x", "/", "%"].contains(operation) else {
            return .string("[ERROR: \(operation) is not a valid mathematical operator]")
        }
        let a = TemplateDecimal(left), b = TemplateDecimal(right)
        if (operation == "/" || operation == "%") && b.unscaled == 0 {
            return fail("math: / by zero")
        }
        let result: TemplateDecimal?
        switch operation {
        case "+": result = a.adding(b)
        case "-": result = a.adding(b.negated)
        case "*", "x": result = a.multiplied(by: b)
        case "/": result = a.divided(by: b)
        default: result = a.remainder(b)
        }
        guard let result else { return fail("math: \(left.text) \(operation) \(right.text) is out of range") }
        return result.value
    }
}

/// A decimal as Java's `BigDecimal`: `unscaled × 10^-scale`, within 64 bits (beyond, `math` fails).
struct TemplateDecimal {
    var unscaled: Int
    var scale: Int

    init(unscaled: Int, scale: Int) {
        self.unscaled = unscaled
        self.scale = scale
    }

    init(_ value: TemplateValue) {
        switch value {
        case let .integer(number): self.init(unscaled: number, scale: 0)
        case let .double(number): self = Self(text: JSONRendering.javaDouble(number)) ?? Self(unscaled: 0, scale: 0)
        case .missing, .string, .bool, .json, .values, .list, .date, .map, .xml, .root, .request, .path, .fields, .body:
            self = Self(text: value.text) ?? Self(unscaled: 0, scale: 0)
        }
    }

    /// `new BigDecimal(text)`: digits, an optional point and an optional exponent.
    init?(text: String) {
        var mantissa = Substring(text), exponent = 0
        if let e = mantissa.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let value = Int(mantissa[mantissa.index(after: e)...].drop { $0 == "+" }), abs(value) < 100 else {
                return nil
            }
            exponent = value
            mantissa = mantissa[..<e]
        }
        var digits = String(mantissa), scale = 0
        if let point = digits.firstIndex(of: ".") {
            scale = digits.distance(from: point, to: digits.endIndex) - 1
            digits.remove(at: point)
        }
        guard digits.contains(where: \.isNumber), let unscaled = Int(digits) else { return nil }
        self.init(unscaled: unscaled, scale: scale - exponent)
    }

    var negated: TemplateDecimal { TemplateDecimal(unscaled: -unscaled, scale: scale) }

    /// Integers when the scale is 0 or less, else Java's `doubleValue()`.
    var value: TemplateValue {
        if scale <= 0, let whole = Self.scaled(unscaled, by: -scale) { return .integer(whole) }
        var power = 1.0
        for _ in 0..<abs(scale) { power *= 10 }
        return .double(scale > 0 ? Double(unscaled) / power : Double(unscaled) * power)
    }

    func adding(_ other: TemplateDecimal) -> TemplateDecimal? {
        let common = max(scale, other.scale)
        guard let a = Self.scaled(unscaled, by: common - scale),
            let b = Self.scaled(other.unscaled, by: common - other.scale)
        else { return nil }
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : TemplateDecimal(unscaled: sum, scale: common)
    }

    func multiplied(by other: TemplateDecimal) -> TemplateDecimal? {
        let (product, overflow) = unscaled.multipliedReportingOverflow(by: other.unscaled)
        return overflow ? nil : TemplateDecimal(unscaled: product, scale: scale + other.scale)
    }

    /// `divide(other, RoundingMode.HALF_UP)`: the result has this value's scale.
    func divided(by other: TemplateDecimal) -> TemplateDecimal? {
        guard other.scale >= 0, let numerator = Self.scaled(unscaled, by: other.scale) else { return nil }
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: other.unscaled)
        // Half up: away from zero when the remainder is at least half the divisor.
        let rounded =
            remainder.magnitude * 2 >= other.unscaled.magnitude
            ? quotient + ((numerator < 0) != (other.unscaled < 0) ? -1 : 1) : quotient
        return TemplateDecimal(unscaled: rounded, scale: scale)
    }

    /// `remainder(other)`: the sign of this value, at the larger scale.
    func remainder(_ other: TemplateDecimal) -> TemplateDecimal? {
        let common = max(scale, other.scale)
        guard let a = Self.scaled(unscaled, by: common - scale),
            let b = Self.scaled(other.unscaled, by: common - other.scale)
        else { return nil }
        return TemplateDecimal(unscaled: a % b, scale: common)
    }

    /// `value × 10^power`, or `nil` on overflow.
    static func scaled(_ value: Int, by power: Int) -> Int? {
        var result = value
        for _ in 0..<max(power, 0) {
            let (next, overflow) = result.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            result = next
        }
        return result
    }
}

/// Handlebars.java's `numberFormat` and WireMock's `math`.
enum NumberHelper: String, Sendable, CaseIterable, TemplateHelperFamily {
    case numberFormat, math

    /// How many arguments the helper takes inline; used as a block, the body is the first one.
    var argumentCounts: ClosedRange<Int> {
        switch self {
        case .numberFormat: 1...3
        case .math: 0...Int.max
        }
    }
}
