/// Handlebars.java's string helpers as WireMock 2.35.1 registers them, and WireMock's `contains`,
/// `matches` and `regexExtract`. Lengths and indices count UTF-16 units, as Java's do. What Java would
/// throw on (`abbreviate` under 4, `substring` out of range) fails the response with a 500 naming it.
extension TemplateEvaluator {
    /// `capitalize` … `regexExtract`, over already evaluated `arguments`.
    @inline(never)
    mutating func stringHelper(_ helper: StringHelper, _ arguments: [TemplateValue], _ call: TemplateCall)
        -> TemplateValue
    {
        func argument(_ index: Int) -> TemplateValue { arguments.indices.contains(index) ? arguments[index] : .missing }
        let subject = argument(0)
        guard budget.spend(steps: subject.text.utf8.count / 256) else { return .missing }
        switch helper {
        case .capitalize:
            let fully = call.option("fully").map { evaluate($0).isTrueOption } ?? false
            return textResult(subject) { Self.capitalizeWords(fully ? $0.lowercased() : $0) }
        case .capitalizeFirst:
            return textResult(subject) { $0.prefix(1).uppercased() + $0.dropFirst() }
        case .stripTags:
            return textResult(subject) { Self.stripTags($0) }
        case .abbreviate:
            guard case .integer(let width) = Self.integer(argument(1)) else { return .missing }
            guard width >= 4 else { return fail("abbreviate: Minimum abbreviation width is 4") }
            return textResult(subject) { text in
                let units = Array(text.utf16)
                guard units.count > width else { return text }
                return String(decoding: units.prefix(width - 3), as: UTF16.self) + "..."
            }
        case .substring:
            if case .missing = subject { return .missing }
            let units = Array(subject.text.utf16)
            guard case .integer(let begin) = Self.integer(argument(1)) else { return .missing }
            var end = units.count
            if arguments.count > 2 {
                guard case .integer(let value) = Self.integer(argument(2)) else { return .missing }
                end = value
            }
            guard begin >= 0, begin <= end, end <= units.count else {
                return fail("substring: begin \(begin), end \(end), length \(units.count)")
            }
            return .string(String(decoding: units[begin..<end], as: UTF16.self))
        case .replace:
            let target = argument(1).text, replacement = argument(2).text
            return textResult(subject) { Self.replace(target, with: replacement, in: $0) }
        case .join:
            return join(arguments, call)
        case .defaultIfEmpty:
            return subject.isTruthy ? subject : argument(1)
        case .contains:
            return .bool(Self.contains(subject, argument(1)))
        case .matches:
            guard let regex = regex(argument(1), call) else { return .missing }
            guard let matched = regex.wholeMatch(subject.text) else {
                return fail("matches: '\(regex.pattern.prefix(120))' gave up (too much backtracking)")
            }
            return .bool(matched)
        case .regexExtract:
            return regexExtract(subject, arguments, call)
        }
    }

    /// The response fails with `message` (the first reason is kept).
    mutating func fail(_ message: String) -> TemplateValue {
        if failure == nil { failure = message }
        return .missing
    }

    /// `join a b … separator prefix= suffix=`: lists are joined element by element.
    private mutating func join(_ arguments: [TemplateValue], _ call: TemplateCall) -> TemplateValue {
        guard arguments.count >= 2, arguments[0].isTruthy else { return .string("") }
        let separator = arguments[arguments.count - 1].text
        var parts: [String] = []
        for value in arguments.dropLast() {
            if let elements = value.elements {
                parts += elements.map(\.value.text)
            } else {
                parts.append(value.text)
            }
        }
        guard budget.spend(steps: parts.count) else { return .missing }
        let prefix = call.option("prefix").map { evaluate($0).text } ?? ""
        let suffix = call.option("suffix").map { evaluate($0).text } ?? ""
        return .string(prefix + parts.joined(separator: separator) + suffix)
    }

    /// `regexExtract value 'pattern'` is the first match (or `default=`); with a third argument, the
    /// groups of every match are kept in that variable and nothing is written.
    private mutating func regexExtract(_ subject: TemplateValue, _ arguments: [TemplateValue], _ call: TemplateCall)
        -> TemplateValue
    {
        let pattern = arguments.count > 1 ? arguments[1].text : ""
        guard let regex = regex(arguments.count > 1 ? arguments[1] : .missing, call) else {
            return .string("[ERROR: Invalid regex string \(pattern)]")
        }
        guard regex.search != nil else {
            return .string("[ERROR: regexExtract does not support back-references: \(pattern)]")
        }
        let text = subject.text
        var groups: [String] = []
        if arguments.count < 3 {
            if let found = regex.firstMatch(in: text) { return .string(found.match) }
        } else {
            for found in regex.allMatches(in: text, limit: Self.maxRegexMatches) {
                groups += found.groups.map { $0 ?? "" }
            }
            guard budget.spend(steps: groups.count) else { return .missing }
        }
        guard !groups.isEmpty else {
            if let fallback = call.option("default") { return evaluate(fallback) }
            return .string("[ERROR: Nothing matched \(pattern)]")
        }
        // WireMock's ListOrSingle: renders the first group, `.[N]` picks one.
        assign(arguments[2].text, .values(groups))
        return .missing
    }

    /// The most matches `regexExtract` collects into a variable.
    static let maxRegexMatches = 1024

    /// The compiled pattern: prepared at load when literal, else compiled now; `nil` if it does not compile.
    private func regex(_ pattern: TemplateValue, _ call: TemplateCall) -> TemplateRegex? {
        if case let .regex(prepared) = call.prepared { return prepared }
        return try? TemplateRegex(pattern.text)
    }

    /// An integer argument: a number, or text that reads as one.
    static func integer(_ value: TemplateValue) -> TemplateValue {
        switch value {
        case .integer: value
        case let .double(number): number.isFinite ? .integer(Int(number)) : .missing
        case .missing, .string, .bool, .json, .values, .list, .date, .map, .xml, .root, .request, .path, .fields, .body:
            Int(value.text).map(TemplateValue.integer) ?? .missing
        }
    }

    /// WordUtils.capitalize: the first character after whitespace (or at the start) in upper case.
    static func capitalizeWords(_ text: String) -> String {
        var out = ""
        var atStart = true
        for character in text {
            out += atStart ? character.uppercased() : String(character)
            atStart = character.isWhitespace
        }
        return out
    }

    /// Handlebars.java's stripTags: every `<…>` removed.
    static func stripTags(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            out += rest[..<open]
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// Java's `String.replace`: every occurrence of `target`, left to right; an empty target goes between
    /// every character.
    static func replace(_ target: String, with replacement: String, in text: String) -> String {
        if target.isEmpty { return replacement + text.map { String($0) + replacement }.joined() }
        return text.split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    /// WireMock's contains: a list holds an element with that text; otherwise the text holds it.
    static func contains(_ subject: TemplateValue, _ expected: TemplateValue) -> Bool {
        if case .missing = subject { return false }
        if case .missing = expected { return false }
        if let elements = subject.elements, subject.isList {
            return elements.contains { $0.value.text == expected.text }
        }
        let text = subject.text, needle = expected.text
        return needle.isEmpty || text.contains(needle)
    }
}

extension TemplateValue {
    /// A list of values (not an object): what Java sees as a `Collection`.
    var isList: Bool {
        switch self {
        case .values, .list, .json(.array): true
        case .missing, .string, .integer, .double, .bool, .json, .date, .map, .xml, .root, .request, .path, .fields,
            .body:
            false
        }
    }
}

/// Handlebars.java's string helpers and WireMock's `contains`, `matches` and `regexExtract`.
enum StringHelper: String, Sendable, CaseIterable, TemplateHelperFamily {
    case capitalize, capitalizeFirst, abbreviate, substring, stripTags, replace, join, defaultIfEmpty
    case contains, matches, regexExtract

    /// How many arguments the helper takes inline; used as a block, the body is the first one.
    var argumentCounts: ClosedRange<Int> {
        switch self {
        case .capitalize, .capitalizeFirst, .stripTags: 1...1
        case .abbreviate, .defaultIfEmpty, .contains, .matches: 2...2
        case .substring, .regexExtract: 2...3
        case .replace: 3...3
        case .join: 2...Int.max
        }
    }

    /// Whether the helper takes a regular expression, compiled at load when it is a literal.
    var takesPattern: Bool { self == .matches || self == .regexExtract }
}
