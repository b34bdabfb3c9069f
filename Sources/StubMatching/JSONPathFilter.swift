import StubModel

/// A filter predicate `[?(...)]` of a ``JSONPathExpression``.
package indirect enum JSONPathFilter: Sendable, Hashable {
    /// `a && b && …`: every term holds.
    case all([JSONPathFilter])
    /// `a || b || …`: some term holds.
    case any([JSONPathFilter])
    case not(JSONPathFilter)
    /// `@.a`: the path selects something.
    case exists(Operand)
    case compare(Operand, Comparison, Operand)
    /// `@.a =~ /regex/i` — whole-value match, as Jayway's `Matcher.matches()`.
    case regex(Operand, CompiledRegex)

    package enum Comparison: String, Sendable, Hashable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// A side of a comparison.
    package enum Operand: Sendable, Hashable {
        /// `@...`, relative to the item being filtered.
        case current([JSONPathExpression.Step])
        /// `$...`, from the document root.
        case root([JSONPathExpression.Step])
        case literal(JSONValue)

        func resolve(_ item: JSONValue, root: JSONValue, work: JSONPathWork) -> JSONValue? {
            let steps: [JSONPathExpression.Step]
            let start: JSONValue
            switch self {
            case let .literal(value): return value
            case let .current(s): steps = s; start = item
            case let .root(s): steps = s; start = root
            }
            let found = JSONPathExpression.apply(steps[...], to: [start], root: root, work: work)
            if steps.allSatisfy(\.isDefinite) { return found.first }
            return .array(found)
        }
    }

    /// Whether `item` passes; each test costs `work` a step (once it is spent, the answer is not used).
    package func test(_ item: JSONValue, root: JSONValue, work: JSONPathWork) -> Bool {
        work.spend(1)
        if work.exhausted { return false }
        switch self {
        case let .all(terms): return terms.allSatisfy { $0.test(item, root: root, work: work) }
        case let .any(terms): return terms.contains { $0.test(item, root: root, work: work) }
        case let .not(a): return !a.test(item, root: root, work: work)
        case let .exists(operand): return operand.resolve(item, root: root, work: work) != nil
        case let .regex(operand, regex):
            // Jayway matches a string, a number as Java prints it, true or false; anything else (missing,
            // null, an array, an object) as "" (WireMock 2.35.1: `{"y":1}` matches `@.x =~ /[0-9]*/`).
            let input: String
            switch operand.resolve(item, root: root, work: work) {
            case let .string(s)?: input = s
            case let .number(text)?: input = JSONRendering.javaNumber(text)
            case let .bool(b)?: input = b ? "true" : "false"
            case nil, .null?, .array?, .object?: input = ""
            }
            return regex.matchesWhole(input)
        case let .compare(lhs, op, rhs):
            guard let a = lhs.resolve(item, root: root, work: work), let b = rhs.resolve(item, root: root, work: work)
            else {
                return op == .notEqual
            }
            switch op {
            case .equal: return Self.equal(a, b)
            case .notEqual: return !Self.equal(a, b)
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                guard let order = Self.order(a, b) else { return false }
                switch op {
                case .less: return order < 0
                case .lessOrEqual: return order <= 0
                case .greater: return order > 0
                case .greaterOrEqual: return order >= 0
                case .equal, .notEqual: return false  // compared above
                }
            }
        }
    }

    private static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if case let .number(x) = a, case let .number(y) = b { return JSONEquivalence.numbersEqual(x, y) }
        return JSONEquivalence.matches(a, b, ignoreArrayOrder: false, ignoreExtraElements: false)
    }

    private static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case let (.number(x), .number(y)):
            guard let x = Double(x), let y = Double(y) else { return nil }
            return x < y ? -1 : (x > y ? 1 : 0)
        case let (.string(x), .string(y)):
            return x < y ? -1 : (x > y ? 1 : 0)
        case (.null, _), (.bool, _), (.number, _), (.string, _), (.array, _), (.object, _):
            return nil
        }
    }
}
