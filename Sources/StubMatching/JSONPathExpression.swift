import StubModel

/// A compiled JSONPath expression (the Jayway subset WireMock users write in `matchesJsonPath`).
///
/// Supported: `$`, `.name`, `['name']` / `["name"]`, `['a','b']`, `[0]`, `[-1]`, `[0,2]`, `[1:3]`,
/// `[*]` / `.*`, deep scan `..name` / `..*` / `..[0]`, filters `[?(@.price < 10 && @.tag == 'x')]`
/// (`==`, `!=`, `<`, `<=`, `>`, `>=`, `=~ /regex/`, existence `@.a`, `!`, `&&`, `||`, parentheses), and a
/// final `.length()` / `.size()`. `!`, `(` and filters nest at most 16 deep together, and an expression is
/// at most 16 KiB (`JSONPathParser.maxDepth`, `maxLength`).
///
/// ```swift
/// let path = try JSONPathExpression("$.items[?(@.id == 2)].name")
/// path.evaluate(document)   // [.string("second")]
/// ```
public struct JSONPathExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    public let expression: String
    package let steps: [Step]

    /// Whether the path names one value at most (no wildcard, deep scan, filter, union or slice). Jayway
    /// returns a single value for these and a list for the others; WireMock's matching depends on it.
    public var isDefinite: Bool { steps.allSatisfy(\.isDefinite) }

    public var description: String { expression }

    /// Parses `expression`.
    /// - Throws: ``JSONPathError`` with the offending position when the expression is not understood.
    public init(_ expression: String) throws(JSONPathError) {
        self.expression = expression
        var parser = try JSONPathParser(expression)
        steps = try parser.parseExpression()
    }

    init(expression: String, steps: [Step]) {
        self.expression = expression
        self.steps = steps
    }

    /// The values the path selects in `document`, in document order. Empty when nothing is found.
    public func evaluate(_ document: JSONValue) -> [JSONValue] {
        Self.apply(steps[...], to: [document], root: document, work: JSONPathWork(limit: .max))
    }

    /// The values the path selects in `document`, or `nil` when that takes more than `budget` steps
    /// (see ``JSONPathWork``): nested filters with deep scans (`$..[?($..[?(…)])]`) or chained deep scans
    /// (`$..*..*..*`) grow with a power of the document's size.
    package func evaluate(_ document: JSONValue, budget: Int) -> [JSONValue]? {
        let work = JSONPathWork(limit: budget)
        let found = Self.apply(steps[...], to: [document], root: document, work: work)
        return work.exhausted ? nil : found
    }

    static func apply(_ steps: ArraySlice<Step>, to values: [JSONValue], root: JSONValue, work: JSONPathWork)
        -> [JSONValue]
    {
        var current = values
        for step in steps {
            var next: [JSONValue] = []
            for value in current {
                step.apply(to: value, root: root, into: &next, work: work)
                if work.exhausted { return [] }
            }
            current = next
            if current.isEmpty { break }
        }
        return current
    }

    /// One step of a path.
    package indirect enum Step: Sendable, Hashable {
        case member(String)
        case members([String])
        case index(Int)
        case indexes([Int])
        case slice(start: Int?, end: Int?)
        case wildcard
        case deepScan(Step)
        case filter(JSONPathFilter)
        case length

        var isDefinite: Bool {
            switch self {
            case .member, .index, .length: true
            case .members, .indexes, .slice, .wildcard, .deepScan, .filter: false
            }
        }

        /// Appends what the step selects from `value` to `out`; each call and each value appended costs
        /// `work` a step.
        func apply(to value: JSONValue, root: JSONValue, into out: inout [JSONValue], work: JSONPathWork) {
            let before = out.count
            defer { work.spend(1 + out.count - before) }
            if work.exhausted { return }
            switch self {
            case let .member(name):
                if let v = value[name] { out.append(v) }
            case let .members(names):
                for name in names { if let v = value[name] { out.append(v) } }
            case let .index(i):
                if case let .array(items) = value, let v = Self.element(items, i) { out.append(v) }
            case let .indexes(list):
                if case let .array(items) = value {
                    for i in list { if let v = Self.element(items, i) { out.append(v) } }
                }
            case let .slice(start, end):
                guard case let .array(items) = value else { return }
                let n = items.count
                func clamp(_ i: Int) -> Int { i < 0 ? max(0, n + i) : min(n, i) }
                let lower = clamp(start ?? 0), upper = clamp(end ?? n)
                if lower < upper { out.append(contentsOf: items[lower..<upper]) }
            case .wildcard:
                switch value {
                case let .array(items): out.append(contentsOf: items)
                case let .object(members): out.append(contentsOf: members.map(\.value))
                case .null, .bool, .number, .string: break
                }
            case let .deepScan(inner):
                // Every value under `value`, in document order, with a stack of its own rather than the
                // thread's: filters inside may scan again from the root.
                var pending = [value]
                while let next = pending.popLast(), !work.exhausted {
                    inner.apply(to: next, root: root, into: &out, work: work)
                    switch next {
                    case let .array(items): pending.append(contentsOf: items.reversed())
                    case let .object(members): pending.append(contentsOf: members.reversed().map(\.value))
                    case .null, .bool, .number, .string: break
                    }
                }
            case let .filter(predicate):
                switch value {
                case let .array(items):
                    out.append(contentsOf: items.filter { predicate.test($0, root: root, work: work) })
                case .object: if predicate.test(value, root: root, work: work) { out.append(value) }
                case .null, .bool, .number, .string: break
                }
            case .length:
                switch value {
                case let .array(items): out.append(.number(String(items.count)))
                case let .object(members): out.append(.number(String(members.count)))
                case let .string(s): out.append(.number(String(s.count)))
                case .null, .bool, .number: break
                }
            }
        }

        private static func element(_ items: [JSONValue], _ i: Int) -> JSONValue? {
            let index = i < 0 ? items.count + i : i
            return items.indices.contains(index) ? items[index] : nil
        }
    }
}

/// Why a JSONPath expression could not be parsed.
public struct JSONPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    public let expression: String
    /// 0-based character offset of the problem.
    public let offset: Int
    /// What was wrong, e.g. `expected ']'`.
    public let message: String
    /// Whether the expression is past `JSONPathParser.maxDepth` or `maxLength` (rather
    /// than not understood): a path built from a request then fails the response instead of selecting nothing.
    public let exceedsLimit: Bool

    init(expression: String, offset: Int, message: String, exceedsLimit: Bool = false) {
        self.expression = expression
        self.offset = offset
        self.message = message
        self.exceedsLimit = exceedsLimit
    }

    /// The message, quoting at most the expression's first 120 characters.
    public var description: String {
        let quoted = expression.count > 120 ? expression.prefix(120) + "…" : Substring(expression)
        return "invalid JSONPath \"\(quoted)\" at offset \(offset): \(message)"
    }
}
