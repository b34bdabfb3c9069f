/// The argument check of the helpers of every family but the core ones and `fake`, and their literal patterns
/// compiled once.
extension TemplateHelper {
    /// Checks that `call` has as many arguments inline as `helper` takes (as a block, the body is the first one);
    /// for a helper that takes a pattern, compiles the literal regular expression (inline the second argument, as a
    /// block the first).
    static func prepareText(
        _ call: TemplateCall, of helper: some TemplateHelperFamily, at start: Int, parser: TemplateParser
    )
        throws(TemplateError) -> PreparedArgument
    {
        let name = helper.rawValue, counts = helper.argumentCounts
        guard call.arguments.count >= counts.lowerBound - 1, call.arguments.count <= counts.upperBound else {
            let expected =
                counts.lowerBound == counts.upperBound
                ? "\(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)"
            throw parser.error(start, "\(name) expects \(expected) arguments, found \(call.arguments.count)")
        }
        guard helper.takesPattern, call.arguments.count >= 1 else { return .none }
        let index = call.arguments.count == 1 ? 0 : 1
        guard case let .literal(.string(source)) = call.arguments[index] else { return .none }
        return .regex(try? TemplateRegex(source))
    }
}

/// A family of helpers whose arguments are only counted at load (and, for some, a literal pattern compiled).
protocol TemplateHelperFamily: RawRepresentable<String> {
    /// How many arguments the helper takes inline; used as a block, the body is the first one.
    var argumentCounts: ClosedRange<Int> { get }
    /// Whether the helper takes a regular expression, compiled at load when it is a literal.
    var takesPattern: Bool { get }
}

extension TemplateHelperFamily {
    var takesPattern: Bool { false }
}
