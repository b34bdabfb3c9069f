import StubMatching

/// The helpers a template can call, as WireMock 2.35.1 names them (`ne` is accepted as an alias of
/// Handlebars' `neq`). Anything else with arguments is a load error, as in WireMock.
enum TemplateHelper: String, Sendable, CaseIterable {
    // Built-in blocks.
    case `if`, unless, each, with
    // Conditionals (Handlebars.java's ConditionalHelpers).
    case eq, neq, ne, gt, gte, lt, lte, and, or, not
    // WireMock's and Handlebars.java's string helpers.
    case jsonPath, now, randomValue, size, lookup, trim, upper, lower, base64, urlEncode
    // Handlebars.java's StringHelpers and NumberHelpers that WireMock 2.35.1 registers.
    case capitalize, capitalizeFirst, abbreviate, substring, stripTags, replace, join, defaultIfEmpty
    case numberFormat
    // WireMock 2.35.1's own string and number helpers.
    case contains, matches, regexExtract, math
    // WireMock 2.35.1's collection, random and request helpers, and Handlebars.java's `assign`.
    case range, array, pickRandom, randomInt, randomDecimal, hostname, formData, assign
    // WireMock 2.35.1's date helpers (`date` is `now` over a given date).
    case parseDate, dateFormat, truncateDate, date
    // WireMock 2.35.1's parseJson; WireMock 3's val, arrayJoin, arrayAdd, arrayRemove.
    case parseJson, val, arrayJoin, arrayAdd, arrayRemove
    // stubserver's fake data (``FakeDataKey``), and the same under the WireMock faker extension's name.
    case fake, random
    // WireMock 3's JSON helpers.
    case toJson, formatJson, jsonMerge, jsonRemove, jsonArrayAdd
    // WireMock 2.35.1's XML helpers.
    case xPath, soapXPath
    // WireMock 2.35.1's environment helper.
    case systemValue

    /// Whether, used as a block, the helper chooses between the body and `{{else}}`.
    var isCondition: Bool {
        switch self {
        case .if, .unless, .with, .eq, .neq, .ne, .gt, .gte, .lt, .lte, .and, .or, .not: true
        default: false
        }
    }

    /// Whether, used as a block, the body is the helper's second argument (the first is the JSON it edits).
    var takesBodySecond: Bool { self == .jsonMerge || self == .jsonArrayAdd }

    /// Checks the arguments and prepares what is literal: a JSONPath, date options, random options.
    func prepare(_ call: TemplateCall, at start: Int, parser: TemplateParser) throws(TemplateError) -> PreparedArgument
    {
        switch self {
        case .jsonPath:
            guard call.arguments.count == 2 else {
                throw parser.error(
                    start, "jsonPath expects a JSON value and a path: {{jsonPath request.body '$.name'}}")
            }
            guard case let .literal(.string(expression)) = call.arguments[1] else { return .none }
            do {
                return .jsonPath(try JSONPathExpression(expression))
            } catch {
                throw parser.error(start, error.description)
            }
        case .now:
            if call.hash.contains(where: { !["format", "offset", "timezone"].contains($0.name) }) {
                throw parser.error(start, "now takes format=, offset= and timezone= options")
            }
            guard let options = literalOptions(call) else { return .none }
            do {
                return .date(
                    try DateOptions(format: options["format"], offset: options["offset"], timezone: options["timezone"])
                )
            } catch {
                throw parser.error(start, "now: \(error.message)")
            }
        case .randomValue:
            if case let .literal(.string(type))? = call.option("type"), RandomValueType(rawValue: type) == nil {
                let known = RandomValueType.allCases.map(\.rawValue).joined(separator: ", ")
                throw parser.error(start, "randomValue: unknown type '\(type)'; expected one of \(known)")
            }
            return .none
        case .each, .with, .not, .size, .trim, .upper, .lower, .base64, .urlEncode:
            guard call.arguments.count <= 1 else { throw parser.error(start, "\(rawValue) expects one argument") }
            return .none
        case .lookup:
            guard call.arguments.count == 2 else { throw parser.error(start, "lookup expects an object and a key") }
            return .none
        case .eq, .neq, .ne, .gt, .gte, .lt, .lte:
            guard call.arguments.count == 2 else { throw parser.error(start, "\(rawValue) expects two arguments") }
            return .none
        case .if, .unless, .and, .or:
            return .none
        case .fake, .random:
            return try prepareFake(call, at: start, parser: parser)
        case .capitalize, .capitalizeFirst, .abbreviate, .substring, .stripTags, .replace, .join, .defaultIfEmpty,
            .numberFormat, .contains, .matches, .regexExtract, .math, .range, .array, .pickRandom, .randomInt,
            .randomDecimal, .hostname, .formData, .assign, .parseDate, .dateFormat, .truncateDate, .date, .parseJson,
            .val, .arrayJoin, .arrayAdd, .arrayRemove, .toJson, .formatJson, .jsonMerge, .jsonRemove, .jsonArrayAdd,
            .xPath, .soapXPath, .systemValue:
            return try prepareText(call, at: start, parser: parser)
        }
    }

    /// The hash options as strings, if every one is a literal.
    private func literalOptions(_ call: TemplateCall) -> [String: String]? {
        var options: [String: String] = [:]
        for (name, value) in call.hash {
            guard case let .literal(literal) = value else { return nil }
            switch literal {
            case let .string(text): options[name] = text
            case let .integer(number): options[name] = String(number)
            default: return nil
            }
        }
        return options
    }
}

/// `randomValue type=`.
enum RandomValueType: String, CaseIterable, Sendable {
    case ALPHANUMERIC, ALPHABETIC, NUMERIC, HEXADECIMAL, UUID, ALPHANUMERIC_AND_SYMBOLS
}
