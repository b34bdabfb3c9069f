import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// External mode with isolation (`STUBSERVER_ISOLATE=1`): each test gets an isolated server of its own from the
/// external one, so tests running at once see neither each other's stubs, requests nor scenario states.
@Suite("External mode with an isolated server per test")
struct IsolatedExternalModeTests {
    @Test("STUBSERVER_ISOLATE turns isolation on with 1, true or yes; url(_:isolated:) too")
    func variable() throws {
        let url = "http://127.0.0.1:9"
        for (value, isolates) in [("1", true), ("true", true), ("YES", true), ("0", false), ("", false)] {
            let external = ExternalStubServer.environment(["STUBSERVER_URL": url, "STUBSERVER_ISOLATE": value])
            #expect(external.isolates == isolates, "\(value)")
        }
        #expect(!ExternalStubServer.environment(["STUBSERVER_URL": url]).isolates)
        let base = try #require(URL(string: url))
        #expect(ExternalStubServer.url(base, isolated: true).isolates)
        #expect(!ExternalStubServer.url(base).isolates)
    }

    @Test("Two tests at once on one external server: their own stubs, journals and scenarios; deleted after")
    func twoTestsAtOnce() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("isolate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let mappings = root.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try Data(
            #"""
            {"scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "full",
             "request": {"method": "POST", "url": "/cart"}, "response": {"status": 201}}
            """#.utf8
        ).write(to: mappings.appendingPathComponent("cart.json"))
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        let parent = try StubServer(stubs: root, configuration: configuration)
        try parent.start()
        try await shuttingDown(parent) {
            let trait = StubServerTrait.stubServer(
                failOnUnmatchedRequests: true,
                external: .environment([
                    "STUBSERVER_URL": parent.baseURL.absoluteString, "STUBSERVER_ISOLATE": "1"
                ]))
            let test = try #require(Test.current)
            let meeting = Meeting(expected: 2)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<2 {
                    group.addTask {
                        try await trait.provideScope(for: test, testCase: nil) {
                            let server = try #require(AnyStubServer.current)
                            #expect(server.isExternal)
                            #expect(server.baseURL.port != parent.port)
                            try await server.stub(.get("/who"), .text("test \(index)"))
                            // Both tests hold their servers before either sends a request.
                            try await meeting.arrive()
                            let who = try #require(URL(string: server.baseURL.absoluteString + "/who"))
                            let cart = try #require(URL(string: server.baseURL.absoluteString + "/cart"))
                            #expect(try await LoopbackClient.send("GET", who).text == "test \(index)")
                            #expect(try await LoopbackClient.send("POST", cart).status == 201)
                            #expect(try await server.scenarioState("cart") == "full")
                            #expect(try await server.requests.count == 2)
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(parent.isolatedServerInfos.isEmpty)
            #expect(parent.journal.entries.isEmpty)
            #expect(parent.mappings.count == 1)
        }
    }
}

/// Lets `expected` tasks wait until all have arrived (for at most a minute).
private actor Meeting {
    let expected: Int
    private var arrived = 0

    init(expected: Int) { self.expected = expected }

    func arrive() async throws {
        arrived += 1
        try await waitUntil("all \(expected) tasks have arrived", timeout: .seconds(60)) { arrived >= expected }
    }
}
