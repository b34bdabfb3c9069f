import StubMatching

/// The helpers a template can call, as WireMock 2.35.1 names them (`ne` is accepted as an alias of
/// Handlebars' `neq`), by family: each family's enum, its argument counts and its evaluation are in one file
/// (`TemplateHelpers+Family.swift`), so a new helper of a family is added there; the core helpers (blocks,
/// conditionals, `jsonPath`, `now`, …) are prepared here and evaluated in `TemplateEvaluator+Helpers.swift`.
/// Anything else with arguments is a load error, as in WireMock.
enum TemplateHelper: Sendable, Hashable {
    case core(CoreHelper)
    case string(StringHelper)
    case number(NumberHelper)
    case collection(CollectionHelper)
    case date(DateHelper)
    case json(JSONHelper)
    case jsonEdit(JSONEditHelper)
    case fake(FakeHelper)
    case xPath(XPathHelper)
    case system(SystemHelper)
    case data(DataHelper)

    /// The helper named `name`, if there is one.
    init?(rawValue name: String) {
        guard let helper = Self.byName[name] else { return nil }
        self = helper
    }

    /// Every helper by its name.
    private static let byName: [String: TemplateHelper] = Dictionary(
        CoreHelper.allCases.map { ($0.rawValue, .core($0)) } + StringHelper.allCases.map { ($0.rawValue, .string($0)) }
            + NumberHelper.allCases.map { ($0.rawValue, .number($0)) }
            + CollectionHelper.allCases.map { ($0.rawValue, .collection($0)) }
            + DateHelper.allCases.map { ($0.rawValue, .date($0)) }
            + JSONHelper.allCases.map { ($0.rawValue, .json($0)) }
            + JSONEditHelper.allCases.map { ($0.rawValue, .jsonEdit($0)) }
            + FakeHelper.allCases.map { ($0.rawValue, .fake($0)) }
            + XPathHelper.allCases.map { ($0.rawValue, .xPath($0)) }
            + SystemHelper.allCases.map { ($0.rawValue, .system($0)) }
            + DataHelper.allCases.map { ($0.rawValue, .data($0)) },
        uniquingKeysWith: { first, _ in first })

    /// Whether, used as a block, the helper chooses between the body and `{{else}}`.
    var isCondition: Bool {
        if case .core(let helper) = self { helper.isCondition } else { false }
    }

    /// Whether, used as a block, the body is the helper's second argument (the first is the JSON it edits).
    var takesBodySecond: Bool {
        if case .jsonEdit(let helper) = self { helper.takesBodySecond } else { false }
    }

    /// `fake` or `random`.
    var isFakeData: Bool {
        if case .fake = self { true } else { false }
    }

    /// Whether `{{name}}` without arguments stays a value (a field of that name), as before the helper existed:
    /// `fake`, `random` and `data`.
    var isValueWhenBare: Bool {
        switch self {
        case .fake, .data: true
        case .core, .string, .number, .collection, .date, .json, .jsonEdit, .xPath, .system: false
        }
    }

    /// Checks the arguments and prepares what is literal: a JSONPath, date options, random options, a pattern.
    func prepare(_ call: TemplateCall, at start: Int, parser: TemplateParser) throws(TemplateError) -> PreparedArgument
    {
        switch self {
        case .core(let helper): try helper.prepare(call, at: start, parser: parser)
        case .fake(let helper): try helper.prepare(call, at: start, parser: parser)
        case .string(let helper): try Self.prepareText(call, of: helper, at: start, parser: parser)
        case .number(let helper): try Self.prepareText(call, of: helper, at: start, parser: parser)
        case .collection(let helper): try Self.prepareText(call, of: helper, at: start, parser: parser)
        case .date(let helper): try Self.prepareText(call, of: helper, at: start, parser: parser)
        case .json(let helper): try Self.prepareText(call, of: helper, at: start, parser: parser)
        case .jsonEdit(let helper): try Self.prepareText(call, of: helper, at: start, parser: parser)
        case .xPath(let helper): try Self.prepareText(call, of: helper, at: start, parser: parser)
        case .system(let helper): try Self.prepareText(call, of: helper, at: start, parser: parser)
        case .data(let helper): try Self.prepareText(call, of: helper, at: start, parser: parser)
        }
    }
}

/// Built-in blocks, Handlebars.java's conditionals, and the first helpers WireMock registered.
enum CoreHelper: String, Sendable, CaseIterable {
    // Built-in blocks.
    case `if`, unless, each, with
    // Conditionals (Handlebars.java's ConditionalHelpers).
    case eq, neq, ne, gt, gte, lt, lte, and, or, not
    // WireMock's and Handlebars.java's string helpers.
    case jsonPath, now, randomValue, size, lookup, trim, upper, lower, base64, urlEncode

    /// Whether, used as a block, the helper chooses between the body and `{{else}}`.
    var isCondition: Bool {
        switch self {
        case .if, .unless, .with, .eq, .neq, .ne, .gt, .gte, .lt, .lte, .and, .or, .not: true
        case .each, .jsonPath, .now, .randomValue, .size, .lookup, .trim, .upper, .lower, .base64, .urlEncode: false
        }
    }

    /// Checks the arguments and prepares what is literal: a JSONPath, date options, random options.
    fileprivate func prepare(_ call: TemplateCall, at start: Int, parser: TemplateParser) throws(TemplateError)
        -> PreparedArgument
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
            case .double, .bool, .null: return nil
            }
        }
        return options
    }
}

/// `randomValue type=`.
enum RandomValueType: String, CaseIterable, Sendable {
    case ALPHANUMERIC, ALPHABETIC, NUMERIC, HEXADECIMAL, UUID, ALPHANUMERIC_AND_SYMBOLS
}
