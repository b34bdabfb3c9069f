/// The argument check of the helpers of every family but the core ones and `fake`, and their literal patterns
/// compiled once.
extension TemplateHelper {
    /// Checks that `call` has `counts` arguments inline (as a block, the body is the first one); with `pattern`,
    /// compiles the literal regular expression it takes (inline the second argument, as a block the first).
    static func prepareText(
        _ call: TemplateCall, named name: String, counts: ClosedRange<Int>, pattern: Bool = false, at start: Int,
        parser: TemplateParser
    ) throws(TemplateError) -> PreparedArgument {
        guard call.arguments.count >= counts.lowerBound - 1, call.arguments.count <= counts.upperBound else {
            let expected =
                counts.lowerBound == counts.upperBound
                ? "\(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)"
            throw parser.error(start, "\(name) expects \(expected) arguments, found \(call.arguments.count)")
        }
        guard pattern, call.arguments.count >= 1 else { return .none }
        let index = call.arguments.count == 1 ? 0 : 1
        guard case let .literal(.string(source)) = call.arguments[index] else { return .none }
        return .regex(try? TemplateRegex(source))
    }
}
