import Foundation
import StubHTTP
import Testing

@testable import StubKit

/// `Shadowing.find`: a stub is reported only when another provably answers every request it matches.
@Suite("Stubs that can never answer")
struct ShadowingTests {
    /// Decodes `{"mappings": [...]}` from the request objects given, in order (index = insertion order).
    private func mappings(_ stubs: [(request: String, extra: String)]) throws -> [StubMapping] {
        let items = stubs.enumerated().map { index, stub in
            #"{"name": "s\#(index)", "request": \#(stub.request), "response": {"status": 200}\#(stub.extra.isEmpty ? "" : ", " + stub.extra)}"#
        }
        let document = #"{"mappings": [\#(items.joined(separator: ","))]}"#
        return try MappingDecoder().decodeDocument(try JSONParser.parse(document), file: "m.json").mappings
    }

    /// `hidden ← winner` pairs by name.
    private func shadowed(_ stubs: [(request: String, extra: String)]) throws -> [String] {
        try Shadowing.find(in: mappings(stubs)).map { "\($0.hidden.name ?? "") ← \($0.winner.name ?? "")" }
    }

    @Test(
        "Found: a duplicate loaded later, a catch-all with a better priority, a pattern covering a path",
        arguments: [
            // The same request twice: the later one wins at equal priority.
            ([(#"{"method": "GET", "url": "/a"}"#, ""), (#"{"method": "GET", "url": "/a"}"#, "")], ["s0 ← s1"]),
            // No URL, any method, priority 1: beats everything at the default 5.
            (
                [
                    (#"{"method": "GET", "urlPath": "/a", "headers": {"Accept": {"equalTo": "x"}}}"#, ""),
                    (#"{}"#, #""priority": 1"#)
                ], ["s0 ← s1"]
            ),
            // The winner's conditions all appear in the hidden stub (header names ignore case); extra ones do not help.
            (
                [
                    (
                        #"{"method": "POST", "url": "/a?b=1", "headers": {"X-A": {"contains": "1"}}, "bodyPatterns": [{"contains": "k"}, {"contains": "j"}]}"#,
                        ""
                    ),
                    (
                        #"{"urlPath": "/a", "headers": {"x-a": {"contains": "1"}}, "bodyPatterns": [{"contains": "j"}]}"#,
                        ""
                    )
                ], ["s0 ← s1"]
            ),
            // A regex or a template accepting the exact path, as the server's matcher says.
            (
                [
                    (#"{"method": "GET", "urlPath": "/users/octocat"}"#, ""),
                    (#"{"method": "GET", "urlPathPattern": "/users/[a-z]+"}"#, "")
                ], ["s0 ← s1"]
            ),
            (
                [
                    (#"{"method": "GET", "url": "/users/octocat?tab=1"}"#, ""),
                    (#"{"method": "GET", "urlPathTemplate": "/users/{id}"}"#, "")
                ], ["s0 ← s1"]
            ),
            (
                [
                    (#"{"method": "GET", "url": "/users/octocat?tab=1"}"#, ""),
                    (#"{"method": "GET", "urlPattern": "/users/.*\\?tab=[0-9]"}"#, "")
                ], ["s0 ← s1"]
            ),
            // A scenario stub hidden by a plain one: it never gets its turn either.
            (
                [
                    (#"{"url": "/a"}"#, #""scenarioName": "s", "requiredScenarioState": "Started""#),
                    (#"{"url": "/a"}"#, "")
                ], ["s0 ← s1"]
            )
        ] as [([(String, String)], [String])])
    func found(stubs: [(String, String)], expected: [String]) throws {
        #expect(try shadowed(stubs.map { (request: $0.0, extra: $0.1) }) == expected)
    }

    @Test(
        "Not found whenever it is not provable",
        arguments: [
            // Added earlier at the same priority: the later, narrower stub wins for its requests.
            [(#"{}"#, ""), (#"{"url": "/a"}"#, "")],
            // A worse priority never wins, however general.
            [(#"{"url": "/a"}"#, ""), (#"{}"#, #""priority": 9"#)],
            // The winner needs something the other stub does not ask for.
            [(#"{"url": "/a"}"#, ""), (#"{"url": "/a", "headers": {"Accept": {"equalTo": "x"}}}"#, "")],
            [
                (#"{"url": "/a", "headers": {"Accept": {"equalTo": "x"}}}"#, ""),
                (#"{"url": "/a", "headers": {"Accept": {"equalTo": "X", "caseInsensitive": true}}}"#, "")
            ],
            [(#"{"method": "GET", "url": "/a"}"#, ""), (#"{"method": "POST", "url": "/a"}"#, "")],
            [(#"{"url": "/a"}"#, ""), (#"{"method": "GET", "url": "/a"}"#, "")],
            [
                (#"{"url": "/a"}"#, ""),
                (#"{"url": "/a", "basicAuthCredentials": {"username": "u", "password": "p"}}"#, "")
            ],
            // A path allows any query; a matcher of the whole URL cannot be proven to accept them all.
            [(#"{"urlPath": "/a"}"#, ""), (#"{"url": "/a"}"#, "")],
            [(#"{"urlPath": "/a"}"#, ""), (#"{"urlPattern": "/a.*"}"#, "")],
            // Two patterns: comparing regular expressions is not attempted.
            [(#"{"urlPathPattern": "/a/[0-9]+"}"#, ""), (#"{"urlPathPattern": "/a/.*"}"#, "")],
            [(#"{"urlPath": "/users/octocat"}"#, ""), (#"{"urlPathPattern": "/users/[0-9]+"}"#, "")],
            // A winner that may stop matching: a required scenario state, a use limit.
            [(#"{"url": "/a"}"#, ""), (#"{"url": "/a"}"#, #""scenarioName": "s", "requiredScenarioState": "Started""#)],
            [(#"{"url": "/a"}"#, ""), (#"{"url": "/a"}"#, #""metadata": {"stubserver": {"times": 1}}"#)]
        ] as [[(String, String)]])
    func notFound(stubs: [(String, String)]) throws {
        #expect(try shadowed(stubs.map { (request: $0.0, extra: $0.1) }) == [])
    }

    @Test("The winner named is the one that answers: best priority, then the latest")
    func winnerOrder() throws {
        let stubs = [
            (request: #"{"url": "/a"}"#, extra: ""), (request: #"{}"#, extra: #""priority": 2"#),
            (request: #"{"urlPath": "/a"}"#, extra: #""priority": 1"#),
            (request: #"{"urlPathPattern": "/.*"}"#, extra: #""priority": 1"#)
        ]
        // s1 (no URL at all) is not provably covered by a path pattern; s0 is, by s3 first.
        #expect(try shadowed(stubs) == ["s0 ← s3", "s2 ← s3"])
        let shadow = try #require(Shadowing.find(in: mappings(stubs)).first)
        #expect(
            shadow.description
                == #""s0" (m.json [0]) can never answer: "s3" (m.json [3]) always wins (priority 1 beats 5) and matches every request it matches"#
        )
    }
}

@Suite("Which stub answers (stubserver match)")
struct MatchExplanationTests {
    @Test("The winner, the stubs it outranks and those waiting for a scenario state")
    func explanation() throws {
        let document = #"""
            {"mappings": [
              {"name": "any", "priority": 9, "request": {"urlPathPattern": "/a.*"}, "response": {"status": 200}},
              {"name": "logged in", "priority": 1, "scenarioName": "login", "requiredScenarioState": "LoggedIn",
               "request": {"url": "/a"}, "response": {"status": 200}},
              {"name": "exact", "request": {"method": "GET", "url": "/a"}, "response": {"status": 201}},
              {"name": "other", "request": {"url": "/b"}, "response": {"status": 200}}
            ]}
            """#
        let mappings = try MappingDecoder().decodeDocument(try JSONParser.parse(document), file: "m.json").mappings
        let explanation = MatchExplanation(request: HTTPRequest(method: .get, target: "/a"), mappings: mappings)
        #expect(explanation.winner?.mapping.name == "exact")
        #expect(explanation.outranked.map(\.mapping.name) == ["any"])
        #expect(explanation.waiting.map(\.mapping.name) == ["logged in"])
        #expect(explanation.nearMissReport == "")

        let missed = MatchExplanation(request: HTTPRequest(method: .get, target: "/c"), mappings: mappings)
        #expect(missed.winner == nil)
        #expect(
            missed.nearMissReport == RouteTable(mappings).nearMissReport(for: HTTPRequest(method: .get, target: "/c")))
        #expect(missed.nearMissReport.hasPrefix("No stub matched GET /c\n"))
    }
}

@Suite("Checking a stubs directory")
struct StubsCheckTests {
    @Test("A missing directory is the one error, worded as the server words it")
    func missingDirectory() {
        let check = StubsCheck(stubs: URL(fileURLWithPath: "no-such-stubs-\(UInt64.random(in: 0...UInt64.max))"))
        #expect(!check.isValid)
        #expect(check.errors.count == 1)
        #expect(check.errors.first?.description.hasPrefix("stubs directory '") == true)
    }
}
