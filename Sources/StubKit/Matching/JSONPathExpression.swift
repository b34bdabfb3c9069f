/// A compiled JSONPath expression (the Jayway subset WireMock users write in `matchesJsonPath`).
///
/// Supported: `$`, `.name`, `['name']` / `["name"]`, `['a','b']`, `[0]`, `[-1]`, `[0,2]`, `[1:3]`,
/// `[*]` / `.*`, deep scan `..name` / `..*` / `..[0]`, filters `[?(@.price < 10 && @.tag == 'x')]`
/// (`==`, `!=`, `<`, `<=`, `>`, `>=`, `=~ /regex/`, existence `@.a`, `!`, `&&`, `||`, parentheses), and a
/// final `.length()` / `.size()`.
///
/// ```swift
/// let path = try JSONPathExpression("$.items[?(@.id == 2)].name")
/// path.evaluate(document)   // [.string("second")]
/// ```
public struct JSONPathExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    public let expression: String
    let steps: [Step]

    /// Whether the path names one value at most (no wildcard, deep scan, filter, union or slice). Jayway
    /// returns a single value for these and a list for the others; WireMock's matching depends on it.
    public var isDefinite: Bool { steps.allSatisfy(\.isDefinite) }

    public var description: String { expression }

    /// Parses `expression`.
    /// - Throws: ``JSONPathError`` with the offending position when the expression is not understood.
    public init(_ expression: String) throws(JSONPathError) {
        self.expression = expression
        var parser = JSONPathParser(expression)
        steps = try parser.parsePath(relative: false)
    }

    init(expression: String, steps: [Step]) {
        self.expression = expression
        self.steps = steps
    }

    /// The values the path selects in `document`, in document order. Empty when nothing is found.
    public func evaluate(_ document: JSONValue) -> [JSONValue] {
        Self.apply(steps[...], to: [document], root: document)
    }

    static func apply(_ steps: ArraySlice<Step>, to values: [JSONValue], root: JSONValue) -> [JSONValue] {
        var current = values
        for step in steps {
            var next: [JSONValue] = []
            for value in current { step.apply(to: value, root: root, into: &next) }
            current = next
            if current.isEmpty { break }
        }
        return current
    }

    /// One step of a path.
    indirect enum Step: Sendable, Hashable {
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
            default: false
            }
        }

        func apply(to value: JSONValue, root: JSONValue, into out: inout [JSONValue]) {
            switch self {
            case let .member(name):
                if let v = value[name] { out.append(v) }
            case let .members(names):
                for name in names { if let v = value[name] { out.append(v) } }
            case let .index(i):
                if case let .array(items) = value, let v = Self.element(items, i) { out.append(v) }
            case let .indexes(list):
                if case let .array(items) = value { for i in list { if let v = Self.element(items, i) { out.append(v) } } }
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
                default: break
                }
            case let .deepScan(inner):
                inner.apply(to: value, root: root, into: &out)
                switch value {
                case let .array(items): for item in items { apply(to: item, root: root, into: &out) }
                case let .object(members): for member in members { apply(to: member.value, root: root, into: &out) }
                default: break
                }
            case let .filter(predicate):
                switch value {
                case let .array(items): out.append(contentsOf: items.filter { predicate.test($0, root: root) })
                case .object: if predicate.test(value, root: root) { out.append(value) }
                default: break
                }
            case .length:
                switch value {
                case let .array(items): out.append(.number(String(items.count)))
                case let .object(members): out.append(.number(String(members.count)))
                case let .string(s): out.append(.number(String(s.count)))
                default: break
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

    public var description: String { "invalid JSONPath \"\(expression)\" at offset \(offset): \(message)" }
}
