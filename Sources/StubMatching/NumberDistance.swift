import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How far a value is from satisfying a numeric matcher, as WireMock 3's `AbstractNumberMatchResult` says:
/// 0 when it does; 1 when it is absent or not a number; otherwise the distance of the two numbers' logarithms
/// (both shifted above 0 when one is negative) over 176, rounded to hundredths, at least 0.01.
enum NumberDistance {
    private static let maxLogDifference = 176.0

    static func distance(_ comparison: NumberComparison, _ expected: Double, _ text: String?) -> Double {
        guard let text, let actual = JavaNumber.parse(text) else { return 1 }
        if comparison.holds(actual, expected) { return 0 }
        let shift = expected < 0 || actual < 0 ? min(expected, actual) : 0
        let shiftedExpected = expected + shift
        let shiftedActual = actual + shift
        if shiftedExpected == .infinity || shiftedActual == .infinity
            || (shiftedExpected == .greatestFiniteMagnitude && shiftedActual == .greatestFiniteMagnitude)
        {
            return 1
        }
        let normalised = abs(log(shiftedExpected) - log(shiftedActual)) / maxLogDifference
        // Java's Math.round(x * 100) / 100.0; a NaN (from a NaN operand) counts as no match.
        let rounded = (min(normalised, 1) * 100 + 0.5).rounded(.down) / 100
        if rounded.isNaN { return 1 }
        return rounded == 0 ? 0.01 : rounded
    }

    /// Why a value does not satisfy the matcher: `"abc" is not a number`, `3 is not greater than 5`; empty
    /// when it is absent (the report says so) or satisfies the matcher.
    static func explain(_ comparison: NumberComparison, _ expected: Double, _ text: String?) -> [String] {
        guard let text else { return [] }
        guard let actual = JavaNumber.parse(text) else {
            return [Quoting.quote(text, limit: 64) + " is not a number"]
        }
        if comparison.holds(actual, expected) { return [] }
        let relation =
            switch comparison {
            case .equalTo: "equal to"
            case .greaterThan: "greater than"
            case .greaterThanOrEqual: "greater than or equal to"
            case .lessThan: "less than"
            case .lessThanOrEqual: "less than or equal to"
            }
        return ["\(JavaNumber.text(actual)) is not \(relation) \(JavaNumber.text(expected))"]
    }
}
