import StubTestSupport
import Testing

@testable import StubKit
@testable import StubMatching
@testable import StubRegex

/// Parsing, evaluating and releasing a JSONPath filter recurse once per `!`, `(` and nested `[?(`. A path
/// comes from a stub file, the admin API or (in a template) a request, and is parsed on a thread with a
/// 512 KiB stack on a Mac: a stack overflow takes the whole server down. These run on such a thread, in the
/// debug build `swift test` makes.
@Suite("Deeply nested JSONPath on a 512 KiB stack")
struct JSONPathDeepNestingTests {
    /// `$[?(!!…@.a)]`: the filter and `levels - 1` negations, `levels` deep.
    static func negations(_ levels: Int) -> String { "$[?(" + String(repeating: "!", count: levels - 1) + "@.a)]" }

    /// `$[?(((…@.a…)))]`: the filter and `levels - 1` parentheses.
    static func parentheses(_ levels: Int) -> String {
        "$[?(" + String(repeating: "(", count: levels - 1) + "@.a" + String(repeating: ")", count: levels - 1) + ")]"
    }

    /// `$[?(@[?(@…[?(@.a)]…)])]`: `levels` filters, each inside the one before; `start` is `@` or `$`.
    static func filters(_ levels: Int, start: String = "@", leaf: String = ".a") -> String {
        "$" + String(repeating: "[?(\(start)", count: levels) + leaf + String(repeating: ")]", count: levels)
    }

    /// Parses `expression` and evaluates it on `{"a": 1}` on a small stack: how many values it selects, or the error.
    static func outcome(_ expression: String, stackSize: Int = SmallStackThread.darwinDefaultStackSize) -> String {
        SmallStackThread.run(stackSize: stackSize) {
            do throws(JSONPathError) {
                let path = try JSONPathExpression(expression)
                return "selected \(path.evaluate(["a": 1]).count)"
            } catch {
                return error.description
            }
        }
    }

    /// Half of a Mac's stack: what a path at the limit may use, leaving the rest to whoever parses it.
    static let halfStack = SmallStackThread.darwinDefaultStackSize / 2

    @Test("Each kind of nesting at the limit parses, evaluates and is released in half a Mac's stack")
    func atTheLimit() {
        let limit = JSONPathParser.maxDepth
        #expect(
            Self.outcome(Self.negations(limit), stackSize: Self.halfStack) == "selected \((limit - 1) % 2 == 0 ? 1 : 0)"
        )
        #expect(Self.outcome(Self.parentheses(limit), stackSize: Self.halfStack) == "selected 1")
        #expect(Self.outcome(Self.filters(limit), stackSize: Self.halfStack) == "selected 1")
        #expect(Self.outcome(Self.filters(limit, start: "$"), stackSize: Self.halfStack) == "selected 1")
        // All kinds mixed, 16 levels in all.
        let mixed =
            "$[?(" + String(repeating: "!!(", count: 2) + "@" + String(repeating: "[?(@", count: 9) + ".a"
            + String(repeating: ")]", count: 9) + String(repeating: ")", count: 2) + ")]"
        #expect(Self.outcome(mixed, stackSize: Self.halfStack) == "selected 1")
    }

    @Test("Long && and || chains are flat: thousands of terms parse, evaluate and are released")
    func longChains() {
        let terms = (0..<1200).map { "@.a == \($0 % 7)" }
        #expect(Self.outcome("$[?(" + terms.joined(separator: " || ") + ")]") == "selected 1")
        #expect(Self.outcome("$[?(" + terms.joined(separator: " && ") + ")]") == "selected 0")
    }

    @Test(
        "Nesting past the limit is a syntax error at the level that goes too deep, not a crash",
        arguments: [
            (negations(JSONPathParser.maxDepth + 1), 19),
            (negations(10_000), 19),
            (parentheses(JSONPathParser.maxDepth + 1), 19),
            (parentheses(8_000), 19),
            (filters(JSONPathParser.maxDepth + 1), 68),
            (filters(2_500), 68),
            (filters(2_500, start: "$"), 68)
        ])
    func tooDeep(_ row: (expression: String, offset: Int)) {
        let outcome = Self.outcome(row.expression)
        #expect(
            outcome.hasSuffix(
                "at offset \(row.offset): filters nested deeper than 16 (each '!', '(' and '[?(' counts as one level)"),
            "\(outcome)")
        #expect(outcome.count < 300, "the message quotes the start of the expression, not all of it")
    }

    @Test("A path longer than 16 KiB is refused before it is parsed, whatever it holds")
    func tooLong() {
        let long = "$[?(" + String(repeating: "!", count: 50_000) + "@.a)]"
        #expect(Self.outcome(long).hasSuffix("at offset 0: longer than 16384 bytes (50009)"))
        let wide = "$." + String(repeating: "a", count: JSONPathParser.maxLength - 2)
        #expect(Self.outcome(wide) == "selected 0")
        #expect(Self.outcome(wide + "a").hasSuffix("longer than 16384 bytes (16385)"))
    }

    /// `{"a":[{"a":[ … 1 … ]}]}`, `levels` deep.
    static let deepDocument: JSONValue = {
        var open = "", close = ""
        for level in 0..<JSONParser.defaultMaximumDepth {
            if level % 2 == 0 { open += #"{"a":"#; close = "}" + close } else { open += "["; close = "]" + close }
        }
        return (try? JSONParser.parse(open + "1" + close)) ?? .null
    }()

    @Test(
        "Filters that scan from the root at every level, or chained deep scans, give up within the budget on a small stack",
        arguments: [
            filters(JSONPathParser.maxDepth, start: "$..", leaf: "a"), filters(8, start: "@..", leaf: "a"),
            "$" + String(repeating: "..*", count: 40), "$..a" + String(repeating: "..a", count: 60)
        ])
    func givesUp(_ expression: String) {
        let outcome: String = SmallStackThread.run {
            guard let path = try? JSONPathExpression(expression) else { return "did not parse" }
            let budget = JSONPathWork.budget(forLength: 1024)
            return path.evaluate(Self.deepDocument, budget: budget).map { "selected \($0.count)" } ?? "gave up"
        }
        #expect(outcome == "gave up")
    }

    @Test(
        "A deep scan over a document at the depth limit, inside filters at the depth limit, fits the budget and the stack"
    )
    func deepScanAtTheLimits() {
        let outcome: String = SmallStackThread.run {
            guard let path = try? JSONPathExpression(Self.filters(JSONPathParser.maxDepth, leaf: "..a")),
                let found = path.evaluate(Self.deepDocument, budget: JSONPathWork.budget(forLength: 1024))
            else { return "gave up" }
            return "selected \(found.count)"
        }
        #expect(outcome == "selected 1")
    }

    @Test("A regex nested as deep as regexes may be, inside filters nested as deep as they may be, on a 512 KiB stack")
    func regexAtBothLimits() {
        let half = RegexParser.maxDepth / 2
        let regex = String(repeating: "(?:a|(", count: half) + "b" + String(repeating: "))", count: half)
        let expression =
            "$" + String(repeating: "[?(@", count: JSONPathParser.maxDepth - 1) + "[?(@.a =~ /\(regex)/)]"
            + String(repeating: ")]", count: JSONPathParser.maxDepth - 1)
        let outcome: String = SmallStackThread.run {
            do throws(JSONPathError) {
                let path = try JSONPathExpression(expression)
                return "selected \(path.evaluate(["a": "b"]).count)"
            } catch {
                return error.description
            }
        }
        #expect(outcome == "selected 1")
    }
}
