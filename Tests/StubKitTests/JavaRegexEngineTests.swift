import Foundation
import StubTestSupport
import Testing

@testable import StubKit
@testable import StubRegex

/// The regex engine's own contract, beyond agreeing with Java (``JavaRegexCorpusTests``): bounded work,
/// no thread-stack recursion, characters beyond the BMP, captures, and errors that name the position.
struct JavaRegexEngineTests {
    static let pathological = "/" + String(repeating: "a", count: 40) + "!"

    @Test("/(a+)+$ against /aaaa…a! gives up within its step budget, and the same value gives up again")
    func exponentialGivesUp() throws {
        let regex = try JavaRegex("/(a+)+$")
        #expect(regex.wholeMatch(Self.pathological, stepBudget: 50_000) == .gaveUp)
        #expect(regex.wholeMatch(Self.pathological, stepBudget: 50_000) == .gaveUp)
        #expect(regex.wholeMatch("/aaaa", stepBudget: 50_000) == .matched)
        #expect(regex.wholeMatch("/aaaa!", stepBudget: 50_000) == .noMatch)
    }

    @Test("Steps, not time, decide: the outcome flips exactly where the budget is too small")
    func budgetIsACount() throws {
        let regex = try JavaRegex("(a|b)*c")
        let value = String(repeating: "ab", count: 50) + "c"
        var needed = 1
        while regex.wholeMatch(value, stepBudget: needed) == .gaveUp { needed *= 2 }
        #expect(needed > 100)
        #expect(regex.wholeMatch(value, stepBudget: needed) == .matched)
        #expect(regex.wholeMatch(value, stepBudget: needed) == .matched)
        #expect(regex.wholeMatch(value, stepBudget: needed / 4) == .gaveUp)
    }

    @Test("Linear patterns over a 4 MiB value take a few steps per byte")
    func linearOverLongValue() throws {
        let body = String(repeating: "x", count: 4 << 20) + "\"id\": 42" + String(repeating: "y", count: 1000)
        let budget = 8 * body.utf8.count
        #expect(try JavaRegex(".*\"id\": ?42.*").wholeMatch(body, stepBudget: budget) == .matched)
        #expect(try JavaRegex(".*\"id\": ?43.*").wholeMatch(body, stepBudget: budget) == .noMatch)
        #expect(try JavaRegex("[xy\"id: 42]+").wholeMatch(body, stepBudget: budget) == .matched)
        #expect(try JavaRegex("x*+\"id\": 42y*").wholeMatch(body, stepBudget: budget) == .matched)
    }

    @Test("Deep backtracking needs no thread stack: 100,000 iterations on a 512 KiB thread")
    func noRecursion() throws {
        let regex = try JavaRegex("(?:a|b)*c")
        let value = String(repeating: "ab", count: 50_000) + "c"
        #expect(SmallStackThread.run { regex.wholeMatch(value, stepBudget: 10_000_000) } == .matched)
    }

    @Test("Groups or classes nested 5,000 deep are refused, not a stack overflow")
    func tooDeep() {
        for pattern in [
            String(repeating: "(", count: 5_000) + "a" + String(repeating: ")", count: 5_000),
            String(repeating: "[a", count: 5_000) + String(repeating: "]", count: 5_000)
        ] {
            #expect(throws: RegexSyntaxError.self) { try JavaRegex(pattern) }
            do {
                _ = try JavaRegex(pattern)
            } catch {
                #expect(error.reason == "Groups and classes nest more than \(RegexParser.maxDepth) deep")
            }
        }
    }

    @Test("The deepest nesting allowed compiles and matches on a 512 KiB thread (parsing recurses per group)")
    func deepNestingOnASmallStack() {
        let half = RegexParser.maxDepth / 2
        let groups = String(repeating: "(?:a|(", count: half) + "b" + String(repeating: "))", count: half)
        let classes =
            String(repeating: "[a", count: RegexParser.maxDepth) + "b"
            + String(repeating: "]", count: RegexParser.maxDepth)
        let outcomes: [RegexOutcome?] = SmallStackThread.run {
            [(groups, "b"), (classes, "b"), (classes, "c")].map { pattern, value in
                (try? JavaRegex(pattern))?.wholeMatch(value, stepBudget: 1_000_000)
            }
        }
        #expect(outcomes == [.matched, .matched, .noMatch])
    }

    @Test("The backtracking stack has a bound: past it the evaluation gives up instead of growing")
    func stackBound() throws {
        let regex = try JavaRegex("(a|b)*c")
        let value = String(repeating: "ab", count: RegexMachine.maxFrames) + "c"
        #expect(regex.wholeMatch(value, stepBudget: Int.max) == .gaveUp)
    }

    @Test(
        "Characters beyond the BMP are one character to '.', classes, ranges and quantifiers",
        arguments: [
            (".", "😀", true), ("..", "😀", false), ("[😀-😂]+", "😁😀😂", true), ("[^a]", "😀", true),
            ("\\x{1F600}{2}", "😀😀", true), ("\\uD83D\\uDE00", "😀", true), ("a.c", "a😀c", true),
            ("\\p{So}", "😀", true), ("(?<=😀)x|.x", "😀x", true), (".*(?<!😀)", "a😀", false), ("\\w", "😀", false)
        ] as [(String, String, Bool)])
    func supplementary(pattern: String, value: String, matches: Bool) throws {
        #expect(try JavaRegex(pattern).wholeMatch(value, stepBudget: 100_000) == (matches ? .matched : .noMatch))
    }

    @Test("Capture groups of a whole match")
    func groups() throws {
        let regex = try JavaRegex("/users/(?<id>\\d+)(/orders/(\\d+))?")
        #expect(regex.wholeMatchGroups("/users/12/orders/7", stepBudget: 10_000) == ["12", "/orders/7", "7"])
        #expect(regex.wholeMatchGroups("/users/12", stepBudget: 10_000) == ["12", nil, nil])
        #expect(regex.wholeMatchGroups("/users/x", stepBudget: 10_000) == nil)
    }

    @Test(
        "Errors say what is wrong and where",
        arguments: [
            ("{\"id\": 1}", "Illegal repetition at position 0"),
            ("/users/(\\d+", "Unclosed group at position 11"),
            ("a**", "Dangling meta character '*' at position 2"),
            ("[z-a]", "Illegal character range at position 3"),
            ("\\p{IsLatin}", "not supported"),
            ("\\y", "Illegal/unsupported escape sequence at position 1"),
            ("(?<a>x)\\k<b>", "named capturing group <b> does not exist"),
            ("(x){1,99999}", "Pattern too large")

        ])
    func errors(pattern: String, message: String) {
        #expect(throws: RegexSyntaxError.self) { try JavaRegex(pattern) }
        do {
            _ = try JavaRegex(pattern)
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
            #expect(error.pattern == pattern)
        }
    }
}
