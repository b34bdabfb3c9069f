import Foundation
import Testing

@testable import StubKit
@testable import StubRegex

/// stubserver's regex engine against `java.util.regex` itself: `Tests/Fixtures/JavaRegex/corpus.txt`
/// (hand-written cases for every construct and WireMock-typical stub patterns) plus seeded random
/// patterns, with the answers Java 17 gave at generation time (`generate.sh`). No Java is needed here.
struct JavaRegexCorpusTests {
    struct Fixture: Decodable {
        struct Entry: Decodable {
            let pattern: String
            let status: String
            let error: String?
            let cases: [[String]]
        }

        let java: String
        let patterns: [Entry]
    }

    static func fixture() throws -> Fixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/JavaRegex/java-regex-expected.json")
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    @Test("Every case of the corpus gets Java's answer: match, no match, or a pattern error")
    func agreesWithJava() throws {
        let fixture = try Self.fixture()
        var mismatches: [String] = []
        var cases = 0
        for entry in fixture.patterns {
            let compiled = Result { () throws(RegexSyntaxError) in try JavaRegex(entry.pattern) }
            switch (entry.status, compiled) {
            case let ("ok", .success(regex)):
                for pair in entry.cases {
                    cases += 1
                    let expected = pair[1] == "match" ? RegexOutcome.matched : .noMatch
                    let outcome = regex.wholeMatch(pair[0], stepBudget: 10_000_000)
                    if outcome != expected {
                        mismatches.append(
                            "\(entry.pattern.debugDescription) on \(pair[0].debugDescription): Java \(pair[1]), here \(outcome)"
                        )
                    }
                }
            case let ("ok", .failure(error)):
                mismatches.append("\(entry.pattern.debugDescription): Java compiles it, here: \(error)")
            case ("error", .failure):
                cases += entry.cases.count
            case ("error", .success):
                mismatches.append(
                    "\(entry.pattern.debugDescription): Java refuses it (\(entry.error ?? "")), here it compiles")
            case let ("unsupported", .failure(error)):
                cases += entry.cases.count
                if !error.reason.contains("not supported") {
                    mismatches.append(
                        "\(entry.pattern.debugDescription): should say it is not supported, says \(error)")
                }
            default:
                mismatches.append("\(entry.pattern.debugDescription): status \(entry.status), here \(compiled)")
            }
        }
        #expect(cases >= 300)
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) disagreements with Java \(fixture.java):\n\(mismatches.prefix(60).joined(separator: "\n"))"
        )
    }
}
