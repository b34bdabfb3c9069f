import Foundation
import StubHTTP
import StubTestSupport
import StubTesting
import Testing

/// A stub whose `urlPattern` backtracks exponentially (`/(a+)+$` against `/aaaa…a!`)
/// costs one bounded evaluation, not minutes of event-loop time: the request gets the next stub (or
/// 404), other connections are served, and the log names the stub once.
@Suite("Regex cost budget over real sockets")
struct RegexBudgetServerTests {
    static let attack = "/" + String(repeating: "a", count: 40) + "!"

    @Test(
        "A pathological urlPattern answers 404, /hello on another connection is served, and the stub is named in a warning"
    )
    func pathologicalPattern() async throws {
        let lines = LockedValue<[String]>([])
        var configuration = StubServer.Configuration()
        configuration.log = LogSink(.handler { text in lines.withLock { $0.append(text) } })
        configuration.logsUnmatchedRequests = false
        let server = try StubServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        server.stub(.get("/hello"), .text("hello"))
        let host = "Host: 127.0.0.1:\(server.port)"
        let created = try AdminAccessTests.send(
            server, "POST", "/__admin/mappings", [host],
            body: """
                {"name": "backtracker", "request": {"urlPattern": "/(a+)+$"}, "response": {"status": 200, "body": "never"}}
                """)
        #expect(created.status == 201)

        // Without a budget this request holds the only event loop for hours (2^40 steps), and /hello waits with it.
        let attack = Task.detached { try AdminAccessTests.send(server, "GET", Self.attack, [host]) }
        let hello = try AdminAccessTests.send(server, "GET", "/hello", [host])
        #expect(hello.status == 200)
        #expect(hello.body == "hello")
        let attacked = try await attack.value
        #expect(attacked.status == 404)
        // Again: still bounded, still no second warning.
        #expect(try AdminAccessTests.send(server, "GET", Self.attack, [host]).status == 404)

        // With a catch-all of lower priority, the next stub answers.
        server.stub(.get(urlPattern: "/a+.*"), .text("next"), priority: 9)
        let next = try AdminAccessTests.send(server, "GET", Self.attack, [host])
        #expect(next.status == 200)
        #expect(next.body == "next")

        #expect(server.log.flush(timeout: .seconds(10)))
        let warnings = lines.withLock { $0 }.joined().split(separator: "\n").filter { $0.contains("gave up") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("stub backtracker") == true)
    }
}
