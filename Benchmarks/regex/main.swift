// Regex benchmark: stubserver's engine (Sources/StubRegex, compiled in with this file) against
// NSRegularExpression (ICU, wrapped as CompiledRegex used to: \A(?:…)\z, dot-matches-all) on the same
// machine in the same run. Each case runs both engines in alternating rounds, bounded in count and time;
// the figures are nanoseconds per whole-value match and the ratio ICU / stubserver (> 1: stubserver faster).
// Built and run by Benchmarks/bench-regex.sh.
import Foundation

struct Case {
    let name: String
    let pattern: String
    let value: String
}

let body64k: String = {
    var s = "{\"items\": ["
    while s.utf8.count < 64 << 10 { s += "{\"name\": \"item\", \"price\": 12.5, \"tags\": [\"a\", \"b\"]}, " }
    return s + "{\"id\": 42}]}"
}()
let longQuery = "/search?" + (0..<30).map { "p\($0)=value\($0)" }.joined(separator: "&") + "&token=abcdefgh12345"
let cases = [
    Case(name: "short URL, match", pattern: "/users/[a-z0-9-]+", value: "/users/abc-123-def"),
    Case(name: "short URL, no match", pattern: "/api/v[0-9]+/orders\\?page=[0-9]+", value: "/api/v2/orders?page=x"),
    Case(name: "groups, optional parts", pattern: "/users/\\d+(/orders(/\\d+)?)?", value: "/users/12/orders/7"),
    Case(name: "header, (?i)", pattern: "(?i)bearer .+", value: "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc"),
    Case(name: "300-byte query, .*…=…{8,}.*", pattern: ".*(?:token|key)=[A-Za-z0-9]{8,}.*", value: longQuery),
    Case(name: "64 KiB body, .*\"id\": ?42.*", pattern: ".*\"id\": ?42.*", value: body64k),
    Case(name: "64 KiB body, no match", pattern: ".*\"id\": ?43.*", value: body64k)
]

let rounds = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 5
let clock = ContinuousClock()

/// Runs `body` `iterations` times; nanoseconds per run.
func measure(_ iterations: Int, _ body: () -> Bool) -> Double {
    var hits = 0
    let elapsed = clock.measure { for _ in 0..<iterations where body() { hits += 1 } }
    precondition(hits == 0 || hits == iterations)
    return Double(elapsed.components.seconds) * 1e9 / Double(iterations) + Double(elapsed.components.attoseconds) / 1e9
        / Double(iterations)
}

func column(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}

print(column("case", 34, left: true), column("ICU ns", 12), column("stubserver ns", 14), column("ratio", 7))
for c in cases {
    let icu = try! NSRegularExpression(pattern: "\\A(?:" + c.pattern + ")\\z", options: [.dotMatchesLineSeparators])
    let ours = try! JavaRegex(c.pattern)
    let length = c.value.utf16.count
    let expected = icu.firstMatch(in: c.value, range: NSRange(location: 0, length: length)) != nil
    precondition(
        (ours.wholeMatch(c.value, stepBudget: Int.max) == .matched) == expected, "engines disagree on \(c.name)")
    // Enough iterations for ~20 ms per engine per round, at most 100,000, at least 3.
    let probe = measure(3) { icu.firstMatch(in: c.value, range: NSRange(location: 0, length: length)) != nil }
    let iterations = max(3, min(100_000, Int(20e6 / max(probe, 1))))
    var icuBest = Double.infinity, oursBest = Double.infinity
    let started = clock.now
    for _ in 0..<rounds where clock.now - started < .seconds(10) {
        icuBest = min(
            icuBest,
            measure(iterations) { icu.firstMatch(in: c.value, range: NSRange(location: 0, length: length)) != nil })
        oursBest = min(oursBest, measure(iterations) { ours.wholeMatch(c.value, stepBudget: Int.max) == .matched })
    }
    print(
        column(c.name, 34, left: true), column(String(Int(icuBest)), 12), column(String(Int(oursBest)), 14),
        column(String(format: "%.2f", icuBest / oursBest), 7))
}
