/// Argument counts of the string and number helpers, and their literal patterns compiled once.
extension TemplateHelper {
    /// How many arguments the helper takes inline; used as a block, the body is the first one.
    var argumentCounts: ClosedRange<Int> {
        switch self {
        case .capitalize, .capitalizeFirst, .stripTags: 1...1
        case .abbreviate, .defaultIfEmpty, .contains, .matches: 2...2
        case .substring, .regexExtract: 2...3
        case .replace: 3...3
        case .join: 2...Int.max
        case .numberFormat, .formData: 1...3
        case .hostname, .randomInt, .randomDecimal: 0...0
        case .assign, .parseDate, .date: 1...2
        case .truncateDate, .arrayAdd: 2...2
        case .parseJson: 1...2
        case .val, .arrayRemove: 1...1
        case .arrayJoin: 2...Int.max
        case .dateFormat: 1...3
        case .toJson, .formatJson: 1...1
        case .jsonMerge, .jsonArrayAdd: 2...2
        case .xPath, .soapXPath: 1...2
        default: 0...Int.max
        }
    }

    func prepareText(_ call: TemplateCall, at start: Int, parser: TemplateParser) throws(TemplateError)
        -> PreparedArgument
    {
        let counts = argumentCounts
        guard call.arguments.count >= counts.lowerBound - 1, call.arguments.count <= counts.upperBound else {
            let expected =
                counts.lowerBound == counts.upperBound
                ? "\(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)"
            throw parser.error(start, "\(rawValue) expects \(expected) arguments, found \(call.arguments.count)")
        }
        guard self == .matches || self == .regexExtract, call.arguments.count >= 1 else { return .none }
        // Inline, the pattern is the second argument; as a block (one argument), the first.
        let index = call.arguments.count == 1 ? 0 : 1
        guard case let .literal(.string(pattern)) = call.arguments[index] else { return .none }
        return .regex(try? TemplateRegex(pattern))
    }
}
