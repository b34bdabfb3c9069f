import Foundation
import StubHTTP
import StubTestSupport
import Testing

@testable import StubKit
@testable import StubMatching

/// `PathTemplate` against the regular expression templates were compiled to before it
/// (`\A(?:lit([^/]+)lit…)\z` on the raw path, groups percent-decoded).
struct PathTemplateTests {
    /// The former compiler, kept here as the reference.
    static func regexParameters(_ template: String, _ path: String) -> [String: String]? {
        var pattern = "", names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open]))
            names.append(String(rest[rest.index(after: open)..<close]))
            pattern += "([^/]+)"
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest))
        let regex = CompiledRegex(pattern)
        guard let groups = regex.wholeMatchGroups(path) else { return nil }
        var parameters: [String: String] = [:]
        for (name, value) in zip(names, groups) { parameters[name] = PercentDecoding.decode(value, plusAsSpace: false) }
        return parameters
    }

    @Test(
        "Matches and parameters",
        arguments: [
            ("/users/{login}", "/users/octocat", ["login": "octocat"]),
            ("/users/{login}", "/users/octo%2Dcat", ["login": "octo-cat"]),
            ("/users/{login}", "/users/a%2Fb", ["login": "a/b"]),
            ("/users/{login}", "/users/a+b", ["login": "a+b"]),
            ("/users/{login}", "/users/", nil),
            ("/users/{login}", "/users", nil),
            ("/users/{login}", "/users/a/", nil),
            ("/users/{login}", "/users//", nil),
            ("/users/{login}/", "/users/a/", ["login": "a"]),
            ("/users/{login}/", "/users/a", nil),
            ("/a//{x}", "/a//1", ["x": "1"]),
            ("/a//{x}", "/a/1", nil),
            ("/a/{x}/b", "/a//b", nil),
            ("/a%20b/{x}", "/a%20b/1", ["x": "1"]),
            ("/a%20b/{x}", "/a b/1", nil),
            ("/a b/{x}", "/a%20b/1", nil),
            ("/caf\u{E9}/{x}", "/caf\u{E9}/\u{1F600}", ["x": "\u{1F600}"]),
            ("/{a}{b}", "/xyz", ["a": "xy", "b": "z"]),
            ("/{a}{b}", "/x", nil),
            ("/{a}{b}", "/\u{E9}", nil),
            ("/{a}{b}", "/\u{E9}\u{E9}", ["a": "\u{E9}", "b": "\u{E9}"]),
            ("/{a}-{b}", "/x-y-z", ["a": "x-y", "b": "z"]),
            ("/{a}-{b}", "/x-", nil),
            ("/v{major}.{minor}", "/v1.2.3", ["major": "1.2", "minor": "3"]),
            ("/files/{name}.json", "/files/a.b.json", ["name": "a.b"]),
            ("/files/{name}.json", "/files/.json", nil),
            ("/{x}/{x}", "/1/2", ["x": "2"]),
            ("/{}", "/1", ["": "1"]),
            ("/a/{x", "/a/{x", [:]),
            ("/a/{x", "/a/1", nil),
            ("/a/x}", "/a/x}", [:]),
            ("/a/{x}}", "/a/1}", ["x": "1"]),
            ("/a/{{x}", "/a/1", ["{x": "1"]),
            ("/a.b/{x}", "/aXb/1", nil),
            ("/a(b)*/{x}", "/a(b)*/1", ["x": "1"]),
            ("/static", "/static", [:]),
            ("/static", "/Static", nil),
            ("", "", [:]),
            ("", "/", nil),
            ("/", "/", [:]),
            ("{x}", "abc", ["x": "abc"]),
            ("{x}", "/abc", nil)
        ] as [(String, String, [String: String]?)])
    func table(_ template: String, _ path: String, _ expected: [String: String]?) {
        let compiled = PathTemplate(template)
        #expect(compiled.parameters(in: path) == expected, "\(template) \(path)")
        #expect(compiled.matches(path) == (expected != nil), "\(template) \(path)")
        #expect(Self.regexParameters(template, path) == expected, "regex: \(template) \(path)")
    }

    @Test(
        "Segments",
        arguments: [
            ("/users/{id}", [PathTemplate.Segment.literal([]), .literal(Array("users".utf8)), .parameter(0)]),
            ("/{a}.json/", [.literal([]), .mixed([.parameter(0), .literal(Array(".json".utf8))]), .literal([])])
        ] as [(String, [PathTemplate.Segment])])
    func segments(_ template: String, _ segments: [PathTemplate.Segment]) {
        #expect(PathTemplate(template).segments == segments)
        #expect(PathTemplate(template).slashCount == segments.count - 1)
    }

    /// Random templates and paths over a small alphabet, seeded: the same answers as the regex.
    @Test("Agrees with the regex", arguments: [1, 2] as [UInt64])
    func randomizedCrossCheck(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let templatePieces = ["/", "/", "a", "b", "-", ".", "{x}", "{y}", "{z}", "{", "}", "\u{E9}", "%20", "(", "*"]
        let pathPieces = [
            "/", "/", "a", "b", "-", ".", "1", "22", "\u{E9}", "%20", "%2F", "{", "}", "(", "*", "\u{1F600}"
        ]
        var matched = 0
        for _ in 0..<600 {
            let template = (0..<Int.random(in: 1...7, using: &rng)).map { _ in
                templatePieces.randomElement(using: &rng) ?? "/"
            }.joined()
            let compiled = PathTemplate(template)
            for _ in 0..<20 {
                // Paths built from the template (so some match) or at random.
                var path = ""
                if Bool.random(using: &rng) {
                    path = template.replacingOccurrences(of: "{x}", with: pathPieces.randomElement(using: &rng) ?? "1")
                        .replacingOccurrences(of: "{y}", with: (pathPieces.randomElement(using: &rng) ?? "1") + "b")
                        .replacingOccurrences(of: "{z}", with: "")
                } else {
                    path = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                        pathPieces.randomElement(using: &rng) ?? "/"
                    }.joined()
                }
                let expected = Self.regexParameters(template, path)
                #expect(compiled.parameters(in: path) == expected, "\(template) \(path)")
                #expect(compiled.matches(path) == (expected != nil), "\(template) \(path)")
                if expected != nil { matched += 1 }
            }
        }
        #expect(matched > 500)
    }
}
