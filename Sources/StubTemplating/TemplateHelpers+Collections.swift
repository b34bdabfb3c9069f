#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// WireMock 2.35.1's `range`, `array`, `pickRandom` (with WireMock 3's `count=`), `randomInt`, `randomDecimal`, `hostname` and
/// `formData`, and Handlebars.java's inline `assign`.
extension TemplateEvaluator {
    @inline(never)
    mutating func collectionHelper(_ helper: CollectionHelper, _ arguments: [TemplateValue], _ call: TemplateCall)
        -> TemplateValue
    {
        func option(_ name: String) -> TemplateValue? { call.option(name).map { evaluate($0) } }
        switch helper {
        case .range:
            return range(arguments)
        case .array:
            if case .missing? = arguments.first { return .list([]) }
            return .list(arguments)
        case .pickRandom:
            guard let first = arguments.first else { return .missing }
            if case .missing = first { return .missing }
            let choices = first.isList ? first.elements?.map(\.value) ?? [] : arguments
            guard !choices.isEmpty else { return fail("pickRandom: bound must be positive (an empty list)") }
            // WireMock 3's `count=N`: N distinct items (at most all of them) in random order, as a list.
            switch option("count") {
            case nil: break
            case let .integer(count)? where count > 0: return pickRandom(choices, count: count)
            case .integer?: break
            case let value?: return fail("pickRandom: count must be an integer, found '\(value.text.prefix(60))'")
            }
            return .string(choices[Int(random.next() % UInt64(choices.count))].text)
        case .randomInt:
            let lower = option("lower").map { Self.integer($0) } ?? .integer(Int(Int32.min))
            let upper = option("upper").map { Self.integer($0) } ?? .integer(Int(Int32.max))
            guard case let .integer(low) = lower, case let .integer(high) = upper else { return .missing }
            guard low < high else {
                return fail("randomInt: bound must be greater than origin (lower \(low), upper \(high))")
            }
            let span = UInt64(high - low)
            return .integer(low + Int(random.next() % span))
        case .randomDecimal:
            let lower = option("lower").map { Double($0.text) } ?? Double.leastNonzeroMagnitude
            let upper = option("upper").map { Double($0.text) } ?? Double.greatestFiniteMagnitude
            guard let lower, let upper else { return .missing }
            guard lower < upper, (upper - lower).isFinite else {
                return fail("randomDecimal: bound must be greater than origin (lower \(lower), upper \(upper))")
            }
            let unit = Double(random.next() >> 11) * 0x1p-53
            return .double(min(lower + unit * (upper - lower), upper.nextDown))
        case .hostname:
            return .string(Self.hostname)
        case .formData:
            return formData(arguments, decode: option("urlDecode")?.isTrueOption ?? false)
        case .assign:
            // Inline, the body is empty: the variable is set to "".
            if let name = arguments.first { assign(name.text, .string("")) }
            return .missing
        }
    }

    /// The first `count` items of a partial Fisher–Yates shuffle, as WireMock 3's `pickRandom count=`.
    private mutating func pickRandom(_ choices: [TemplateValue], count: Int) -> TemplateValue {
        var items = choices
        let length = min(items.count, count)
        guard budget.spend(steps: length) else { return .missing }
        for index in 0..<length {
            let other = index + Int(random.next() % UInt64(items.count - index))
            items.swapAt(index, other)
        }
        return .list(Array(items[..<length]))
    }

    /// The most elements `range` builds.
    static let maxRangeCount = 100_000

    /// `range 1 5`: `[1, 2, 3, 4, 5]`; bounds that are not integers write WireMock's error.
    private mutating func range(_ arguments: [TemplateValue]) -> TemplateValue {
        guard arguments.count >= 2, case let .integer(lower) = Self.integer(arguments[0]),
            case let .integer(upper) = Self.integer(arguments[1])
        else {
            if arguments.count >= 2 { return fail("range: For input string: \"\(arguments[0].text.prefix(60))\"") }
            return .string("[ERROR: The range helper requires both lower and upper bounds as integer parameters]")
        }
        let (span, overflow) = upper.subtractingReportingOverflow(lower)
        guard !overflow, span >= -1 else { return fail("range: IllegalArgumentException: \(span &+ 1)") }
        guard span < Self.maxRangeCount else {
            return fail("range: \(lower) to \(upper) is more than \(Self.maxRangeCount) numbers")
        }
        guard budget.spend(steps: span + 1) else { return .missing }
        return .list((0..<(span + 1)).map { .integer(lower + $0) })
    }

    /// `formData request.body ['name'] [urlDecode=true]`: the fields of a form body, each a list that
    /// renders its first value, in the variable `name` or as the result.
    private mutating func formData(_ arguments: [TemplateValue], decode: Bool) -> TemplateValue {
        guard let body = arguments.first else { return .missing }
        if case .missing = body { return fail("formData: no form to read (the value is missing)") }
        let text = body.text
        guard budget.spend(steps: text.utf8.count / 256) else { return .missing }
        var entries: [(key: String, value: [String])] = []
        // As WireMock's FormParser: Java's split on `=` (trailing empty parts dropped); a field needs a
        // value, and only the text up to a second `=` is it, trimmed.
        for pair in text.split(separator: "&") {
            var parts = pair.split(separator: "=", omittingEmptySubsequences: false)
            while parts.last?.isEmpty == true { parts.removeLast() }
            guard parts.count > 1 else { continue }
            let key = String(parts[0])
            let value = TemplateEscaping.javaTrim(String(parts[1]))
            let decoded = decode ? TemplateEscaping.urlDecode(value) : value
            if let index = entries.firstIndex(where: { $0.key == key }) {
                entries[index].value.append(decoded)
            } else {
                entries.append((key, [decoded]))
            }
        }
        guard budget.spend(steps: entries.count) else { return .missing }
        let form = TemplateValue.map(entries.map { ($0.key, .values($0.value)) })
        guard arguments.count > 1 else { return form }
        assign(arguments[1].text, form)
        return .missing
    }

    /// The machine's host name, read once; `localhost` if it is empty.
    static let hostname: String = {
        let name = ProcessInfo.processInfo.hostName
        return name.isEmpty ? "localhost" : name
    }()
}

/// WireMock's collection, random and request helpers, and Handlebars.java's `assign`.
enum CollectionHelper: String, Sendable, CaseIterable, TemplateHelperFamily {
    case range, array, pickRandom, randomInt, randomDecimal, hostname, formData, assign

    /// How many arguments the helper takes inline; used as a block, the body is the first one.
    var argumentCounts: ClosedRange<Int> {
        switch self {
        case .range, .array, .pickRandom: 0...Int.max
        case .hostname, .randomInt, .randomDecimal: 0...0
        case .formData: 1...3
        case .assign: 1...2
        }
    }
}
