import Foundation
import StubTestSupport
import Testing

@testable import StubKit
@testable import StubMatching
@testable import StubRegex

/// The regex prefilter may only turn away values the regular expression would reject: these tests check
/// what it reads off patterns, and that a prefiltered ``CompiledRegex`` agrees with the plain regex.
struct RegexPrefilterTests {
    @Test(
        "Literal prefix, suffix and infix read off a pattern",
        arguments: [
            ("/users", "/users", "", ""),
            ("^/api/v1/.*", "/api/v1/", "", ""),
            ("/api/users/[0-9]+/orders-12", "/api/users/", "/orders-12", ""),
            (".*/users/12/[a-f0-9]{8}", "", "", "/users/12/"),
            ("/[a-z]+/users-7(/.*)?", "/", "", "/users-7"),
            ("/(?:users|teams)/[0-9]+/r9", "/", "/r9", "/"),
            ("/(api|v[0-9])/users/[0-9]+/d3", "/", "/d3", "/users/"),
            ("ab?c", "a", "c", ""),
            ("ab*cd+e", "a", "e", "cd"),
            ("a{2}bc", "", "bc", ""),
            ("\\.json$", ".json", "", ""),
            ("x\\d+\\.y", "x", ".y", ""),
            ("/a/\\w+/bc\\b", "/a/", "", "/bc"),
            ("Bearer .+", "Bearer ", "", ""),
            ("[abc]+/x", "", "/x", ""),
            ("\\A(?:/x)\\z", "", "", "")
        ] as [(String, String, String, String)])
    func reads(pattern: String, prefix: String, suffix: String, infix: String) {
        let filter = RegexPrefilter(pattern: pattern)
        #expect(String(decoding: filter.prefix, as: UTF8.self) == prefix, "prefix of \(pattern)")
        #expect(String(decoding: filter.suffix, as: UTF8.self) == suffix, "suffix of \(pattern)")
        #expect(String(decoding: filter.infix, as: UTF8.self) == infix, "infix of \(pattern)")
    }

    @Test(
        "Gives up on what it does not understand",
        arguments: [
            "a|b", "abc|abd", "(?i)abc", "(?x)a b c", "a(?=b)c", "a(?<n>b)c", "\\Qa.b\\E", "\\x41bc", "\\p{L}bc",
            "\\cAbc", "(a)\\1bc", "[[a-z]]bc", "[]a]bc", "a)(b", "a]b", "a}b", "ab\\", "a(b", "a[bc",
            "\\u0041bc", "\\N{LATIN SMALL LETTER A}bc", "a(?#c)b"
        ])
    func givesUp(pattern: String) {
        #expect(RegexPrefilter(pattern: pattern) == .none, "\(pattern)")
    }

    @Test(
        "Admits by bytes",
        arguments: [
            ("^/api/.*", "/api/x", true), ("^/api/.*", "/apx/x", false), ("^/api/.*", "/ap", false),
            (".*/users/[0-9]+", "/v1/users/12", true), (".*/users/[0-9]+", "/v1/user/12", false),
            ("/x/.*/é", "/x/a/é", true), ("/x/.*/é", "/x/a/e\u{301}", false),
            ("ab.*ba", "abba", true), ("ab.*ba", "aba", false), ("ab.*ba", "ab", false)
        ] as [(String, String, Bool)])
    func admits(pattern: String, value: String, admitted: Bool) {
        #expect(RegexPrefilter(pattern: pattern).admits(value) == admitted)
        if admitted { #expect(CompiledRegex(pattern).matchesWhole(value) == plainMatch(pattern, value)) }
    }

    /// Random patterns built with a sample of what they match, the samples mutated into near misses; the
    /// prefiltered regex must answer exactly as the plain one, and the prefilter admit every match.
    @Test("Prefiltered regex agrees with the plain regex", arguments: [1, 2, 3, 4] as [UInt64])
    func randomizedCrossCheck(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var matches = 0, checked = 0, filtered = 0
        for _ in 0..<300 {
            let (pattern, sample) = Self.randomPattern(&rng)
            let compiled = CompiledRegex(pattern)
            guard compiled.compileError == nil else { continue }
            var values = [sample, "", "/", sample + "/", "x" + sample]
            for _ in 0..<6 { values.append(Self.mutate(sample, &rng)) }
            for value in values {
                let plain = plainMatch(pattern, value)
                #expect(compiled.matchesWhole(value) == plain, "\(pattern) on \(value)")
                if plain { #expect(compiled.prefilter.admits(value), "\(pattern) admits \(value)") }
                if !compiled.prefilter.admits(value) { filtered += 1 }
                if plain { matches += 1 }
                checked += 1
            }
        }
        #expect(matches > 200)  // the samples do match
        #expect(filtered > 200)  // and the prefilter does turn values away
        #expect(checked > 2_000)
    }

    // MARK: - Generator

    private static let alphabet: [Character] = ["a", "b", "c", "/", "-", "1", "é", " ", "."]
    private static let literalChars: [Character] = ["a", "b", "c", "/", "-", "1", "é", " "]

    /// A pattern of 1–7 pieces and one string it matches.
    static func randomPattern(_ rng: inout SplitMix64) -> (String, String) {
        var pattern = Bool.random(using: &rng) && Int.random(in: 0..<4, using: &rng) == 0 ? "^" : ""
        var sample = ""
        for _ in 0..<Int.random(in: 1...7, using: &rng) {
            let (p, s) = piece(&rng, depth: 0)
            pattern += p
            sample += s
        }
        if Int.random(in: 0..<5, using: &rng) == 0 { pattern += "$" }
        return (pattern, sample)
    }

    private static func piece(_ rng: inout SplitMix64, depth: Int) -> (String, String) {
        let literal = literalChars.randomElement(using: &rng) ?? "a"
        switch Int.random(in: 0..<14, using: &rng) {
        case 0...4: return (literal == "." ? "\\." : String(literal), String(literal))
        case 5:
            let escaped = ["/", "-", ".", "$", "(", "+"].randomElement(using: &rng) ?? "."
            return ("\\" + escaped, escaped)
        case 6: return (String(literal) + "?", Bool.random(using: &rng) ? String(literal) : "")
        case 7: return (String(literal) + "*", String(repeating: literal, count: Int.random(in: 0...2, using: &rng)))
        case 8: return (String(literal) + "+", String(repeating: literal, count: Int.random(in: 1...2, using: &rng)))
        case 9:
            return (String(literal) + "{1,2}", String(repeating: literal, count: Int.random(in: 1...2, using: &rng)))
        case 10: return ("[a-c1]", String(["a", "b", "c", "1"].randomElement(using: &rng) ?? "a"))
        case 11: return (".", String(alphabet.randomElement(using: &rng) ?? "a"))
        case 12: return ("\\d", String(Int.random(in: 0...9, using: &rng)))
        default:
            guard depth < 2 else { return ("b", "b") }
            let (a, sa) = piece(&rng, depth: depth + 1), (b, sb) = piece(&rng, depth: depth + 1)
            let capture = Bool.random(using: &rng) ? "(" : "(?:"
            let quantifier = ["", "?", "*", "+"].randomElement(using: &rng) ?? ""
            let repeats: ClosedRange<Int> =
                switch quantifier {
                case "?": 0...1;
                case "*": 0...2;
                case "+": 1...2;
                default: 1...1
                }
            let sample = String(
                repeating: Bool.random(using: &rng) ? sa : sb, count: Int.random(in: repeats, using: &rng))
            return (capture + a + "|" + b + ")" + quantifier, sample)
        }
    }

    private static func mutate(_ s: String, _ rng: inout SplitMix64) -> String {
        var chars = Array(s)
        let c = alphabet.randomElement(using: &rng) ?? "a"
        switch Int.random(in: 0..<3, using: &rng) {
        case 0 where !chars.isEmpty: chars.remove(at: Int.random(in: 0..<chars.count, using: &rng))
        case 1 where !chars.isEmpty: chars[Int.random(in: 0..<chars.count, using: &rng)] = c
        default: chars.insert(c, at: Int.random(in: 0...chars.count, using: &rng))
        }
        return String(chars)
    }
}

/// The regex as ``CompiledRegex`` runs it, without any prefilter.
private func plainMatch(_ pattern: String, _ value: String) -> Bool {
    guard let regex = try? JavaRegex(pattern) else { return false }
    return regex.wholeMatch(value, stepBudget: 10_000_000) == .matched
}
