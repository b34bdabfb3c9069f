import StubMatching
import StubModel

/// What each helper computes. A missing argument gives an empty result (WireMock 2.35.1 answers 500
/// for most helpers given a missing value; here the response is still served).
extension TemplateEvaluator {
    /// Calls `helper`; for a value helper used as a block, `input` is the rendered body.
    mutating func call(_ helper: TemplateHelper, _ call: TemplateCall, input: TemplateValue? = nil) -> TemplateValue {
        var arguments: [TemplateValue] = []
        for argument in call.arguments { arguments.append(evaluate(argument)) }
        // As a block, the body is the first argument, or (`jsonMerge`, `jsonArrayAdd`) the second.
        if let input { arguments.insert(input, at: helper.takesBodySecond ? min(1, arguments.count) : 0) }
        guard budget.spend(steps: 1) else { return .missing }
        func argument(_ index: Int) -> TemplateValue { arguments.indices.contains(index) ? arguments[index] : .missing }
        func option(_ name: String) -> TemplateValue? { call.option(name).map { evaluate($0) } }

        // The core helpers here; each family's in its own `TemplateHelpers+Family.swift` (never inlined: the frame of
        // `call`, on the recursion of nested sub-expressions, stays small).
        switch helper {
        case .core(let core):
            switch core {
            case .if: return .bool(argument(0).isTruthy)
            case .unless, .not: return .bool(!argument(0).isTruthy)
            case .with, .each: return argument(0)
            case .and: return .bool(!arguments.isEmpty && arguments.allSatisfy(\.isTruthy))
            case .or: return .bool(arguments.contains { $0.isTruthy })
            case .eq: return .bool(TemplateComparison.equal(argument(0), argument(1)))
            case .neq, .ne: return .bool(!TemplateComparison.equal(argument(0), argument(1)))
            case .gt: return .bool(TemplateComparison.compare(argument(0), argument(1)).map { $0 > 0 } ?? false)
            case .gte: return .bool(TemplateComparison.compare(argument(0), argument(1)).map { $0 >= 0 } ?? false)
            case .lt: return .bool(TemplateComparison.compare(argument(0), argument(1)).map { $0 < 0 } ?? false)
            case .lte: return .bool(TemplateComparison.compare(argument(0), argument(1)).map { $0 <= 0 } ?? false)
            case .size: return .integer(Self.size(of: argument(0)))
            case .lookup: return argument(0).member(argument(1).text)
            case .trim: return textResult(argument(0)) { TemplateEscaping.javaTrim($0) }
            case .upper: return textResult(argument(0)) { $0.uppercased() }
            case .lower: return textResult(argument(0)) { $0.lowercased() }
            case .base64:
                let decode = option("decode")?.isTrueOption ?? false
                let padding = option("padding")?.isFalseOption != true
                return textResult(argument(0)) {
                    decode ? TemplateEscaping.base64Decode($0) : TemplateEscaping.base64Encode($0, padding: padding)
                }
            case .urlEncode:
                let decode = option("decode")?.isTrueOption ?? false
                return textResult(argument(0)) {
                    decode ? TemplateEscaping.urlDecode($0) : TemplateEscaping.urlEncode($0)
                }
            case .jsonPath:
                return jsonPath(argument(0), argument(1), prepared: call.prepared)
            case .now:
                return .string(dateOptions(call)?.render(nowMilliseconds: nowMilliseconds) ?? "")
            case .randomValue:
                let length: Int
                switch option("length") {
                case let .integer(value)?: length = value
                case let value?: length = Int(value.text) ?? 36
                case nil: length = 36
                }
                let type = option("type").flatMap { RandomValueType(rawValue: $0.text) } ?? .ALPHANUMERIC
                return .string(
                    random.value(
                        type: type, length: max(0, min(length, 1 << 16)),
                        uppercase: option("uppercase")?.isTrueOption ?? false))
            }
        case .string(let helper): return stringHelper(helper, arguments, call)
        case .number(let helper): return numberHelper(helper, arguments, call)
        case .collection(let helper): return collectionHelper(helper, arguments, call)
        case .date(let helper): return dateHelper(helper, arguments, call)
        case .json(let helper): return jsonHelper(helper, arguments, call)
        case .jsonEdit(let helper): return jsonEditHelper(helper, arguments, call)
        case .fake(let helper): return fake(helper, arguments, call)
        case .xPath(let helper): return xPathHelper(helper, arguments)
        case .system: return systemValue(call)
        case .data: return dataHelper(arguments)
        }
    }

    /// `transform` of the value's text; reading the text costs one step per 256 bytes.
    mutating func textResult(_ value: TemplateValue, _ transform: (String) -> String) -> TemplateValue {
        if case .missing = value { return .missing }
        let text = value.text
        guard budget.spend(steps: text.utf8.count / 256) else { return .missing }
        return .string(transform(text))
    }

    /// Characters of a string (UTF-16 units, as Java), values of a list, members of an object.
    static func size(of value: TemplateValue) -> Int {
        switch value {
        case .missing: 0
        case let .string(text): text.utf16.count
        case let .json(.string(text)): text.utf16.count
        case .fields: value.elements?.count ?? 0
        case .integer, .double, .bool, .json, .values, .list, .date, .map, .xml, .root, .request, .path, .body:
            value.elements?.count ?? value.text.utf16.count
        }
    }

    /// `path` over the subject. Over the request body, a path's result is kept for the rest of the render
    /// (up to ``jsonPathCacheLimit`` paths), so a loop that repeats it does not walk the document each time.
    /// Parsing a text subject costs one step per 256 bytes; each value found, one step.
    /// A path built from the request is parsed here: if it does not parse it selects nothing, and past the
    /// parser's limits or its evaluation budget it fails the response.
    private mutating func jsonPath(_ subject: TemplateValue, _ pathValue: TemplateValue, prepared: PreparedArgument)
        -> TemplateValue
    {
        let path: JSONPathExpression
        if case let .jsonPath(compiled) = prepared {
            path = compiled
        } else {
            do {
                path = try JSONPathExpression(pathValue.text)
            } catch {
                if error.exceedsLimit, failure == nil { failure = "jsonPath: \(error.description)" }
                return .missing
            }
        }
        let document: JSONValue?
        var length = 0
        switch subject {
        case let .body(model):
            if let cached = jsonPathCache[path] { return cached }
            guard fitsJSONLimit(model.request.body.count, "the request body") else { return .missing }
            document = model.bodyJSON; length = model.request.body.count
        case let .json(json): document = json
        case .missing: document = nil
        case .string, .integer, .double, .bool, .values, .list, .date, .map, .xml, .root, .request, .path, .fields:
            let bytes = Array(subject.text.utf8)
            guard budget.spend(steps: bytes.count / 256), fitsJSONLimit(bytes.count, "the value") else {
                return .missing
            }
            document = try? JSONParser.parse(bytes)
            length = bytes.count
        }
        guard let document else { return .missing }
        let work = JSONPathWork.budget(forLength: length)
        guard let found = path.evaluate(document, budget: work) else {
            if failure == nil {
                failure =
                    "jsonPath: \(path.expression.prefix(120)) gave up after \(work) steps (filters and deep scans nested in each other)"
            }
            return .missing
        }
        guard budget.spend(steps: found.count) else { return .missing }
        let result: TemplateValue =
            path.isDefinite ? found.first.map(TemplateValue.json) ?? .missing : .json(.array(found))
        if case .body = subject, jsonPathCache.count < Self.jsonPathCacheLimit { jsonPathCache[path] = result }
        return result
    }

    /// Whether `count` bytes of `what` may be parsed as JSON (``TemplateLimits/maxJSONBytes``); if not, the
    /// response fails, naming the limit: an empty result would be a wrong answer, not an explained one.
    private mutating func fitsJSONLimit(_ count: Int, _ what: String) -> Bool {
        let limit = budget.limits.maxJSONBytes
        guard count > limit else { return true }
        if failure == nil {
            failure =
                "jsonPath: \(what) (\(count) bytes) is over the limit of JSON parsed per request, \(limit) bytes "
                + "(--max-json-match-body, Configuration.jsonMatchBodyLimit)"
        }
        return false
    }

    /// The most `jsonPath` results over the request body one render keeps.
    static let jsonPathCacheLimit = 16

    private mutating func dateOptions(_ call: TemplateCall) -> DateOptions? {
        if case let .date(options) = call.prepared { return options }
        func text(_ name: String) -> String? {
            guard let expression = call.option(name) else { return nil }
            return evaluate(expression).text
        }
        return try? DateOptions(format: text("format"), offset: text("offset"), timezone: text("timezone"))
    }
}

extension TemplateValue {
    /// `decode=true` / `decode='true'`.
    var isTrueOption: Bool {
        if case let .bool(value) = self { return value }
        return text == "true"
    }

    var isFalseOption: Bool {
        if case let .bool(value) = self { return !value }
        return text == "false"
    }
}
