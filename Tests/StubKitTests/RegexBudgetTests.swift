import Foundation
import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// One regular-expression evaluation has a step budget: exponential backtracking gives up (no match)
/// instead of holding an event loop for seconds, while linear patterns over long values still match.
struct RegexBudgetTests {
    static let pathological = "/" + String(repeating: "a", count: 40) + "!"

    @Test("/(a+)+$ against /aaaa…a! gives up: neither matches nor 'does not match'")
    func givesUp() {
        let regex = CompiledRegex("/(a+)+$")
        #expect(regex.wholeMatch(Self.pathological) == nil)
        #expect(!regex.matchesWhole(Self.pathological))
        #expect(!regex.doesNotMatchWhole(Self.pathological))
        // Short values are decided as before.
        #expect(regex.matchesWhole("/aaa"))
        #expect(regex.doesNotMatchWhole("/aaa!"))
    }

    @Test("A linear pattern over a 4 MiB value is decided, not cut short")
    func longLinearValues() {
        let body = String(repeating: "x", count: 4 << 20) + "\"id\": 42" + String(repeating: "y", count: 1000)
        #expect(CompiledRegex(".*\"id\": 42.*").wholeMatch(body) == true)
        #expect(CompiledRegex(".*\"id\": 43.*").wholeMatch(body) == false)
    }

    @Test("The owning stub is named in one warning, however often the budget runs out")
    func warnsOnce() {
        let warnings = LockedValue<[String]>([])
        let owner = RegexOwner(stubID: "1", stubName: "evil.json") { _, line in warnings.withLock { $0.append(line) } }
        let regex = CompiledRegex("/(a+)+$", owner: owner)
        for _ in 0..<3 { #expect(regex.wholeMatch(Self.pathological) == nil) }
        let lines = warnings.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("stub evil.json") == true)
        #expect(lines.first?.contains("/(a+)+$") == true)
    }

    @Test("In a route table the stub is skipped: the next stub answers")
    func nextStubAnswers() {
        let evil = StubMapping(
            id: "1", name: "evil", priority: 1, request: RequestPattern(url: .urlPattern("/(a+)+$")),
            response: ResponseDefinition())
        let fallback = StubMapping(
            id: "2", name: "fallback", priority: 5, request: RequestPattern(url: .urlPattern("/a+.*")),
            response: ResponseDefinition())
        let table = RouteTable([evil, fallback], regexWarnings: { _, _ in })
        #expect(table.match(HTTPRequest(method: .get, target: Self.pathological))?.mapping.id == "2")
        #expect(table.match(HTTPRequest(method: .get, target: "/aaaa"))?.mapping.id == "1")
    }
}
