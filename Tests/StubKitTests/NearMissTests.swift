import Foundation
import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

struct NearMissTests {
    static func stub(
        _ id: String, name: String? = nil, source: String? = nil, priority: Int = 5, _ request: RequestPattern
    ) -> StubMapping {
        StubMapping(
            id: id, name: name, priority: priority, request: request, response: ResponseDefinition(), source: source)
    }

    static let octocat = stub(
        "1", name: "GitHub user octocat", source: "Stubs/mappings/users.json",
        RequestPattern(
            method: .exactly("GET"), url: .urlPath("/users/octocat"),
            queryParameters: [NamedMatcher("page", .single(.equalTo("1", caseInsensitive: false)))],
            headers: [NamedMatcher("Authorization", .single(.matches("token .+")))]))
    static let torvalds = stub(
        "2", name: "GitHub user torvalds", RequestPattern(method: .exactly("GET"), url: .urlPath("/users/torvalds")))
    static let createRepo = stub(
        "3", source: "Stubs/mappings/repos.json", RequestPattern(method: .exactly("POST"), url: .urlPath("/user/repos"))
    )
    static let request = HTTPRequest(
        method: .get, target: "/users/octocat?page=2", headers: ["Accept": "application/json"])

    @Test("Near misses are sorted by distance over all stubs")
    func ordering() {
        let table = RouteTable([Self.createRepo, Self.octocat, Self.torvalds])
        #expect(table.match(Self.request) == nil)
        let misses = table.nearMisses(for: Self.request)
        #expect(misses.map(\.mapping.id) == ["1", "2", "3"])
        #expect(misses.map(\.index) == [1, 2, 0])
        #expect(zip(misses, misses.dropFirst()).allSatisfy { $0.result.distance <= $1.result.distance })
        #expect(table.nearMisses(for: Self.request, limit: 1).map(\.mapping.id) == ["1"])
        #expect(table.nearMisses(for: Self.request, limit: 0).isEmpty)
    }

    @Test("Ties are broken in winner order: lower priority, then more recent")
    func ties() {
        let pattern = RequestPattern(url: .urlPath("/x"))
        let table = RouteTable([
            Self.stub("old", pattern), Self.stub("new", pattern), Self.stub("important", priority: 1, pattern)
        ])
        #expect(
            table.nearMisses(for: HTTPRequest(method: .get, target: "/y"), limit: 3).map(\.mapping.id) == [
                "important", "new", "old"
            ])
    }

    @Test("Renders a report a developer can read")
    func rendering() {
        let table = RouteTable([Self.createRepo, Self.octocat, Self.torvalds])
        let report = NearMissReport.render(
            request: Self.request, nearMisses: table.nearMisses(for: Self.request, limit: 2))
        #expect(
            report == """
                No stub matched GET /users/octocat?page=2

                Request:
                  GET /users/octocat?page=2 HTTP/1.1
                  Accept: application/json
                  (no body)

                Closest stubs:
                  1. "GitHub user octocat" (Stubs/mappings/users.json) — 2 differences
                       query "page": expected equalTo "1", got "2"
                       header "Authorization": expected matches "token .+", got absent
                  2. "GitHub user torvalds" — 1 difference
                       url: expected urlPath "/users/torvalds", got "/users/octocat"

                """)
    }

    @Test("Says when no stubs are loaded")
    func noStubs() {
        let report = NearMissReport.render(
            request: Self.request, nearMisses: RouteTable([]).nearMisses(for: Self.request))
        #expect(report.hasSuffix("No stubs are loaded.\n"))
        #expect(!report.contains("Closest stubs"))
    }

    @Test("Truncates huge bodies and values")
    func truncation() {
        let body = String(repeating: "x", count: 5000)
        let request = HTTPRequest(
            method: .post, target: "/upload", headers: ["X-Big": String(repeating: "h", count: 300)],
            body: Array(body.utf8))
        let table = RouteTable([
            Self.stub(
                "s", RequestPattern(url: .urlPath("/upload"), bodyPatterns: [.equalTo("small", caseInsensitive: false)])
            )
        ])
        let report = NearMissReport.render(request: request, nearMisses: table.nearMisses(for: request))
        #expect(report.contains("  X-Big: " + String(repeating: "h", count: 200) + "… (100 more bytes)\n"))
        #expect(report.contains("  " + String(repeating: "x", count: 1024) + "… (3976 more bytes)\n"))
        #expect(
            report.contains(
                #"body: expected equalTo "small", got ""# + String(repeating: "x", count: 199) + "… (4802 more bytes)"))
        #expect(report.split(separator: "\n").allSatisfy { $0.utf8.count < 1200 })
    }

    static let accents: [UInt8] = Array(String(repeating: "é", count: 2000).utf8)
    static let invalidAtTheEnd: [UInt8] = [UInt8](repeating: 0x61, count: 3000) + [0xFF]

    @Test(
        "Binary bodies are summarised",
        arguments: [
            ([0xFF, 0xFE, 0x00] as [UInt8], "  (3 bytes of binary data)\n"),
            (Array("a\nb".utf8), "  a\n  b\n"),
            ([], "  (no body)\n"),
            // Long bodies: only the shown part is decoded, yet the cut falls on a character and a byte that is
            // not UTF-8 far past the limit still makes the body binary.
            (Self.accents, "  " + String(repeating: "é", count: 512) + "… (2976 more bytes)\n"),
            (Self.invalidAtTheEnd, "  (3001 bytes of binary data)\n")
        ])
    func bodies(_ body: [UInt8], _ rendered: String) {
        #expect(NearMissReport.renderBody(body) == rendered)
    }

    @Test(
        "Stub titles",
        arguments: [
            (Self.stub("id1", name: "n", source: "s.json", RequestPattern()), #""n" (s.json)"#),
            (Self.stub("id1", name: "n", RequestPattern()), #""n""#),
            (Self.stub("id1", source: "s.json", RequestPattern()), "s.json"),
            (Self.stub("id1", RequestPattern()), "ANY any URL (id id1)"),
            (Self.stub("id2", RequestPattern(method: .exactly("GET"), url: .urlPath("/a"))), "GET /a (id id2)")
        ])
    func titles(_ mapping: StubMapping, _ title: String) {
        #expect(NearMissReport.title(mapping) == title)
    }

    @Test(
        "Quoting escapes and truncates at character boundaries",
        arguments: [
            ("a\"b\\c\n", 100, #""a\"b\\c\n""#),
            ("héllo", 3, "\"h… (6 more bytes)"),
            ("short", 10, "short")
        ])
    func quoting(_ value: String, _ limit: Int, _ expected: String) {
        if value == "short" {
            #expect(Quoting.truncate(value, limit: limit) == expected)
        } else {
            #expect(Quoting.quote(value, limit: limit) == expected)
        }
    }
}
