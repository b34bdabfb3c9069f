import Foundation
import StubHTTP
import StubServerTestSupport
import StubTestSupport
import Testing

@testable import StubTesting

/// Failures that say everything once, as a Swift Testing user meets them: real requests
/// over loopback, the failure messages read from the recorded issues.
@Suite("Failure reports")
struct FailureReportTests {
    static func text(_ issue: Issue) -> String { issue.comments.map(\.rawValue).joined() }
    /// What the first failure that attaches the journal adds to its issue (Swift 6.2 and later attach it).
    static var attachedHint: String {
        #if compiler(>=6.2)
            JournalAttachment.whereToFind
        #else
            ""
        #endif
    }

    @Test(
        "A JSON body that differs is explained field by field, not as an escaped string",
        .stubServer(configuration: FailureReportTests.quiet))
    func jsonBodyDiff() async throws {
        let server = try #require(StubServer.current)
        let line = #line + 1
        server.stub(
            .post("/user/repos").withJSONBody(["name": "stubserver", "private": false]), .status(201),
            name: "Create repo")
        let body = Data(#"{"name":"stubserver","private":true,"topics":["swift"]}"#.utf8)
        let response = try await HTTP.send(
            server, "POST", "/user/repos", headers: ["Content-Type": "application/json"], body: body)
        #expect(response.status == 404)
        #expect(
            response.text.contains(
                """
                  1. "Create repo" (FailureReportTests.swift:\(line)) — 1 difference
                       body: does not match equalToJson {"name":"stubserver","private":false}
                         $.private: expected false, got true
                         $.topics: unexpected, got ["swift"]
                """))
        withKnownIssue {
            expectRequested(server, .post("/user/repos").withJSONBody(["name": "stubserver", "private": false]))
        } matching: { issue in
            Self.text(issue).contains(
                """
                Closest requests:
                  1. POST /user/repos → 404 (no match)
                       body: does not match equalToJson {"name":"stubserver","private":false}
                         $.private: expected false, got true
                         $.topics: unexpected, got ["swift"]
                """)
        }
    }

    @Test(
        "matchesJsonPath body patterns name the path and the value found",
        .stubServer(configuration: FailureReportTests.quiet))
    func jsonPathDiff() async throws {
        let server = try #require(StubServer.current)
        _ = try await HTTP.send(server, "POST", "/search", body: Data(#"{"query":{"q":"swift","page":2}}"#.utf8))
        withKnownIssue {
            expectRequested(
                server,
                .post("/search").withBody(.matchesJsonPath("$.query.page", .equalTo("1", caseInsensitive: false))))
        } matching: { issue in
            Self.text(issue).contains(
                """
                       body: does not match matchesJsonPath "$.query.page" equalTo "1"
                         $.query.page: expected equalTo "1", got 2
                """)
        }
    }

    @Test(
        "Runtime stubs are named by their pattern and call site; an explicit name wins",
        .stubServer(configuration: FailureReportTests.quiet))
    func callSiteNames() async throws {
        let server = try #require(StubServer.current)
        let line = #line + 1
        server.stub(.get("/users/octocat").withHeader("Accept", .contains("json")), .json(["login": "octocat"]))
        server.stub(.post("/user/repos"), .status(201), name: "Create repo")
        let site = "FailureReportTests.swift:\(line)"

        let miss = try await HTTP.get(server, "/users/octocat", headers: ["Accept": "text/html"])
        #expect(
            miss.text.contains(#"1. GET /users/octocat with header "Accept" contains "json" (\#(site)) — 1 difference"#)
        )
        #expect(miss.text.contains(#""Create repo" (FailureReportTests.swift:\#(line + 1)) — 2 differences"#))
        #expect(!miss.text.contains(server.mappings[0].id))

        let hit = try await HTTP.get(server, "/users/octocat", headers: ["Accept": "application/json"])
        #expect(hit.status == 200)
        #expect(
            server.requests.last?.description
                == #"GET /users/octocat → 200 (GET /users/octocat with header "Accept" contains "json" (\#(site)))"#)
        #expect(server.mappings.map(\.callSite?.line) == [line, line + 1])
    }

    @Test("An unmatched request reported by expectNoUnmatchedRequests is not reported again by failOnUnmatchedRequests")
    func unmatchedReportedOnce() async throws {
        let issues = IssueTexts()
        try await withinScope(of: .stubServer(configuration: Self.quiet, failOnUnmatchedRequests: true)) { server in
            _ = try await HTTP.get(server, "/not-stubbed")
            expectNoUnmatchedRequests(server)
        } matching: { issue in
            issues.append(Self.text(issue))
            return true
        }
        #expect(issues.all.count == 1)
        #expect(issues.all.first?.hasPrefix("1 request matched no stub:\n  GET /not-stubbed → 404\n") == true)
    }

    @Test(
        "XCTest's teardown failures name the test method",
        arguments: [
            ("-[ProfileTests testShowsOctocat]", "testShowsOctocat"),
            ("ProfileTests.testShowsOctocat", "testShowsOctocat"),
            ("testAlone", "testAlone")
        ])
    func testMethodNames(_ name: String, _ method: String) {
        #expect(TeardownChecks.testMethod(name) == method)
    }

    @Test("With failOnUnmatchedRequests, the near-miss report is in the failure once, and the log has one line")
    func unmatchedReportNotLoggedTwice() async throws {
        let issues = IssueTexts()
        let logged = LockedValue<[String]>([])
        var configuration = StubServer.Configuration()
        configuration.log = LogSink(
            .handler { text in logged.withLock { $0 += text.split(separator: "\n").map(String.init) } })
        try await withinScope(of: .stubServer(configuration: configuration, failOnUnmatchedRequests: true)) { server in
            server.stub(.get("/users/octocat"), .text("hi"), name: "octocat")
            _ = try await HTTP.get(server, "/users/octocot")
        } matching: { issue in
            issues.append(Self.text(issue))
            return true
        }
        #expect(configuration.log.flush(timeout: .seconds(30)))
        #expect(issues.all.count == 1)
        #expect(issues.all.first?.contains(#"1. "octocat""#) == true, "the report: \(issues.all)")
        #expect(
            logged.withLock { $0 } == [
                "stubserver: no stub matched GET /users/octocot → 404 (its near-miss report is in the test's "
                    + "failOnUnmatchedRequests failure)"
            ])
    }

    @Test("failOnUnmatchedRequests still reports requests that arrived after the explicit check, and says so")
    func laterUnmatchedReported() async throws {
        let issues = IssueTexts()
        try await withinScope(of: .stubServer(configuration: Self.quiet, failOnUnmatchedRequests: true)) { server in
            _ = try await HTTP.get(server, "/first")
            expectNoUnmatchedRequests(server)
            _ = try await HTTP.get(server, "/second")
        } matching: { issue in
            issues.append(Self.text(issue))
            return true
        }
        #expect(issues.all.count == 2)
        #expect(
            issues.all.last?.hasPrefix(
                "failOnUnmatchedRequests: 1 more request matched no stub (1 reported above):\n  GET /second → 404\n")
                == true)
        #expect(issues.all.last?.contains("/first") == false)
    }

    @Test("failOnUnusedStubs lists the stubs the test added that answered nothing")
    func unusedStubs() async throws {
        let line = LineBox()
        try await withinScope(of: .stubServer(configuration: Self.quiet, failOnUnusedStubs: true)) { server in
            server.stub(.get("/used"), .text("ok"))
            line.value = #line + 1
            server.stub(.get("/never"), .text("no"))
            server.stub(.get("/named"), .text("no"), name: "Never called")
            _ = try await HTTP.get(server, "/used")
        } matching: { issue in
            Self.text(issue) == """
                failOnUnusedStubs: 2 stubs added at run time answered no request:
                  GET /never (FailureReportTests.swift:\(line.value))
                  "Never called" (FailureReportTests.swift:\(line.value + 1))

                """ + Self.attachedHint
        }
    }

    @Test("A stub the demo's priority-1 stub always beats warns when added, and the unused-stubs report says why")
    func shadowedStub() async throws {
        let lines = LockedValue<[String]>([])
        var configuration = Self.quiet
        configuration.log = LogSink(
            .handler { text in lines.withLock { $0 += text.split(separator: "\n").map(String.init) } })
        let server = try StubServer(stubs: Demo.stubs(), configuration: configuration)
        try server.start()
        try await shuttingDown(server) {
            let line = #line + 1
            server.stub(.get("/users/octocat"), .json(["login": "mona"]))
            // Not shadowed: it wins at the same priority (added later), accepts other methods, or matches other paths.
            server.stub(.get("/users/octocat"), .json(["login": "mona"]), priority: 1)
            server.stub(.any("/users/octocat/orgs"), .json([]), priority: 9)
            server.stub(.get(pathPattern: "/users/.*"), .json([]), priority: 9)

            #expect(configuration.log.flush(timeout: .seconds(30)))
            let warning = """
                stubserver: warning: stub GET /users/octocat (FailureReportTests.swift:\(line)) can never answer: \
                "GitHub user octocat" (Stubs/mappings/users-octocat.json [0]) always wins (priority 1 beats 5) \
                and matches every request it matches; give it priority 1 or remove the other stub
                """
            #expect(lines.withLock { $0.filter { $0.contains("warning:") } } == [warning])
            #expect(server.shadowedRuntimeStubs.map(\.hidden.callSite?.line) == [line])

            // The admin API warns too; such a stub has no call site, so its pattern and id name it.
            let posted = try await HTTP.send(
                server, "POST", "/__admin/mappings",
                body: Data(
                    """
                    {"id": "0b0e0000-0000-4000-8000-000000000001", "request": {"method": "GET", "urlPath": "/users/octocat"},
                     "response": {"status": 200}}
                    """.utf8))
            #expect(posted.status == 201)
            #expect(configuration.log.flush(timeout: .seconds(30)))
            #expect(
                lines.withLock { $0.last } == """
                    stubserver: warning: admin: stub GET /users/octocat (id 0b0e0000-0000-4000-8000-000000000001) can never \
                    answer: "GitHub user octocat" (Stubs/mappings/users-octocat.json [0]) always wins (priority 1 beats 5) \
                    and matches every request it matches; give it priority 1 or remove the other stub
                    """)

            let octocat = try await HTTP.get(server, "/users/octocat")
            #expect(octocat.status == 200)
            let report = try #require(RequestVerification.noUnusedStubs(server))
            // By now the stub that answers in its place is the priority-1 runtime stub added after it (it beats the
            // file stub too), and the report names that one.
            #expect(
                report.contains(
                    """
                      GET /users/octocat (FailureReportTests.swift:\(line)) can never answer: \
                    GET /users/octocat (FailureReportTests.swift:\(line + 2)) always wins (priority 1 beats 5)
                    """))
        }
    }

    @Test("A failed expectRequested names the shadowed stub when the stub that answered always beats it")
    func shadowExplainsOutcome() async throws {
        var configuration = Self.quiet
        configuration.log = LogSink(.handler { _ in })
        let server = try StubServer(stubs: Demo.stubs(), configuration: configuration)
        try server.start()
        try await shuttingDown(server) {
            let observed = IssueTexts()
            server.failureLedger.observeShadowedStubs { observed.append($0.hidden.displayName) }
            let line = #line + 1
            server.stub(.get("/users/octocat"), .json(["login": "mona"]))
            server.stub(.get("/users/octocat"), .json(["login": "mona"]))  // a second one warns too, each once
            let user = try await HTTP.get(server, "/users/octocat")
            #expect(try user.json()["login"] as? String == "octocat")
            withKnownIssue {
                expectRequested(server, .get("/users/octocat").withHeader("Authorization", .matches("token .+")))
            } matching: { issue in
                Self.text(issue).hasSuffix(
                    """
                    Shadowed stubs:
                      GET /users/octocat (FailureReportTests.swift:\(line)) can never answer: "GitHub user octocat" \
                    (Stubs/mappings/users-octocat.json [0]) always wins (priority 1 beats 5) and matches every request it matches
                      GET /users/octocat (FailureReportTests.swift:\(line + 1)) can never answer: "GitHub user octocat" \
                    (Stubs/mappings/users-octocat.json [0]) always wins (priority 1 beats 5) and matches every request it matches

                    """ + Self.attachedHint)
            }
            #expect(
                observed.all == [
                    "GET /users/octocat (FailureReportTests.swift:\(line))",
                    "GET /users/octocat (FailureReportTests.swift:\(line + 1))"
                ])
        }
    }

    @Test(
        "A failed check attaches the journal once, as readable JSON",
        .stubServer(configuration: FailureReportTests.quiet))
    func journalAttachment() async throws {
        let server = try #require(StubServer.current)
        _ = try await HTTP.send(server, "POST", "/user/repos", body: Data(#"{"name":"x"}"#.utf8))
        let json = JournalAttachment.json(server)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let requests = try #require(object["requests"] as? [[String: Any]])
        #expect(object["total"] as? Int == 1)
        #expect(requests.first?["method"] as? String == "POST")
        #expect((requests.first?["body"] as? [String: Any])?["name"] as? String == "x")  // JSON reads as JSON
        #expect((requests.first?["response"] as? String)?.hasPrefix("No stub matched POST /user/repos") == true)
        #expect(json.contains("\n  \"requests\""))  // pretty-printed
        let issues = IssueTexts()
        withKnownIssue {
            expectNoUnmatchedRequests(server)
        } matching: {
            issues.append(Self.text($0)); return true
        }
        withKnownIssue {
            expectRequested(server, .get("/never"))
        } matching: {
            issues.append(Self.text($0)); return true
        }
        #if compiler(>=6.2)
            #expect(!server.failureLedger.shouldAttachJournal())  // already attached
            // The issue that attached it says where `swift test` puts attachments; the next one does not repeat it.
            #expect(
                issues.all.first?.hasSuffix(
                    "with `swift test --attachments-path DIR` (an existing directory), which saves it there.)") == true)
        #endif
        #expect(issues.all.count == 2)
        #expect(issues.all.last?.contains("--attachments-path") == false)
    }

    @Test(
        "A failed check of an external server (AnyStubServer over the admin API) attaches its journal once",
        .stubServer(configuration: FailureReportTests.quiet))
    func externalJournalAttachment() async throws {
        let inProcess = try #require(StubServer.current)
        let server = AnyStubServer(StubServerClient(baseURL: inProcess.baseURL))
        #expect(server.isExternal)
        _ = try await HTTP.send(inProcess, "POST", "/user/repos", body: Data(#"{"name":"x"}"#.utf8))
        let json = await JournalAttachment.json(external: server)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let requests = try #require(object["requests"] as? [[String: Any]])
        #expect(object["server"] as? String == inProcess.baseURL.absoluteString)
        #expect(object["total"] as? Int == 1)
        #expect(requests.first?["method"] as? String == "POST")
        #expect((requests.first?["body"] as? [String: Any])?["name"] as? String == "x")
        #expect((requests.first?["response"] as? String)?.hasPrefix("No stub matched POST /user/repos") == true)
        let issues = IssueTexts()
        await withKnownIssue {
            await expectNoUnmatchedRequests(server)
            await expectRequested(server, .get("/never"))
        } matching: {
            issues.append(Self.text($0)); return true
        }
        #expect(issues.all.count == 2)
        #if compiler(>=6.2)
            #expect(!server.remoteLedger.shouldAttachJournal())  // already attached
            #expect(issues.all.first?.contains("--attachments-path") == true)
        #endif
        #expect(issues.all.last?.contains("--attachments-path") == false)

        // XCTest's synchronous teardown reads the same journal, waiting (off the concurrency pool).
        let waited = await offPool { JournalAttachment.jsonWaiting(external: server) }
        #expect(waited.contains(#""method": "POST""#) && waited.contains(#""total": 1"#), "\(waited)")

        // A journal that cannot be read is said in the attachment, not thrown.
        let gone = AnyStubServer(StubServerClient(baseURL: try #require(URL(string: "http://127.0.0.1:1"))))
        #expect(await JournalAttachment.json(external: gone).contains("the journal could not be read"))
    }

    /// Runs `body` inside `trait`'s scope for the current test, as the trait runs a test, with the server the
    /// scope provides; what the scope records (the trait's own reports included) are known issues when
    /// `matching` accepts them.
    private func withinScope(
        of trait: StubServerTrait, _ body: @Sendable (StubServer) async throws -> Void,
        matching: @escaping KnownIssueMatcher
    ) async throws {
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let server = try #require(StubServer.current)
                try await body(server)
            }
        } matching: { issue in
            matching(issue)
        }
    }

    static var quiet: StubServer.Configuration {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        return configuration
    }
}

/// Collects issue texts from a `withKnownIssue` matcher.
private final class IssueTexts: @unchecked Sendable {  // appended to by the matcher, read after it returns
    private let texts = LockedValue<[String]>([])
    func append(_ text: String) { texts.withLock { $0.append(text) } }
    var all: [String] { texts.withLock { $0 } }
}

/// A line number set inside a `@Sendable` scope and read after it.
private final class LineBox: @unchecked Sendable {  // written once inside the scope, read after it
    var value = 0
}
