import Foundation
import StubServerTestSupport
import Testing

@testable import StubTesting

/// The message-building functions directly (the helpers above check them end to end).
@Suite("Verification messages")
struct VerificationMessageTests {
    @Test(
        "Patterns are summarised on one line",
        arguments: [
            (RequestPattern.get("/users/octocat"), "GET /users/octocat"),
            (.get("/search?q=swift"), "GET /search?q=swift"),
            (.any("/health"), "ANY /health"),
            (.get(pathPattern: "/users/[a-z]+"), #"GET urlPathPattern "/users/[a-z]+""#),
            (RequestPattern(), "ANY any URL"),
            (
                .post("/repos").withHeader("Accept", .contains("json")).withQuery("page", "2"),
                #"POST /repos with query "page" equalTo "2", header "Accept" contains "json""#
            ),
            (.post("/repos").withJSONBody(["name": "x"]), #"POST /repos with body equalToJson {"name":"x"}"#),
            (.get("/me").withBasicAuth(username: "octocat", password: "secret"), #"GET /me with basic auth "octocat""#)
        ])
    func summaries(pattern: RequestPattern, expected: String) {
        #expect(pattern.summary == expected)
    }

    @Test("No message when the expectation holds")
    func passes() throws {
        let server = try StubServer.start()
        defer { server.stop() }
        #expect(RequestVerification.requested(server, .get("/x"), count: 0) == nil)
        #expect(RequestVerification.requested(server, .get("/x"), count: nil) != nil)
        #expect(RequestVerification.noUnmatchedRequests(server) == nil)
    }

    @Test("An empty journal says so")
    func emptyJournal() throws {
        let server = try StubServer.start()
        defer { server.stop() }
        #expect(
            RequestVerification.requested(server, .get("/users/octocat"), count: 2) == """
                Expected exactly 2 requests matching GET /users/octocat, received none.

                No requests were received.

                """)
    }

    @Test("The caller's message goes after the first line")
    func combine() {
        #expect(RequestVerification.combine("A.\n\nB", with: "why") == "A. - why\n\nB")
        #expect(RequestVerification.combine("A.", with: "why") == "A. - why")
        #expect(RequestVerification.combine("A.\nB", with: "") == "A.\nB")
    }

    @Test("Long journals show the newest requests and say how many are hidden")
    func longJournal() async throws {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        let server = try StubServer(configuration: configuration)
        try server.start()
        try await shuttingDown(server) {
            for index in 0..<25 { _ = try await HTTP.get(server, "/n/\(index)") }
            let message = try #require(RequestVerification.requested(server, .get("/n/99"), count: 1))
            #expect(
                message.contains(
                    "Requests received (25, oldest first):\n  (5 earlier not shown)\n  6. GET /n/5 → 404 (no match)"))
            #expect(message.contains("25. GET /n/24 → 404 (no match)"))
            #expect(
                message.contains(
                    "Closest requests:\n  1. GET /n/9 → 404 (no match)\n       url: expected urlPath \"/n/99\", got \"/n/9\""
                ))
            let unmatched = try #require(RequestVerification.noUnmatchedRequests(server))
            #expect(unmatched.hasPrefix("25 requests matched no stub:\n  (5 earlier not shown)\n  GET /n/5 → 404\n"))
        }
    }
}

@Suite("Locating the stubs folder")
struct StubsDirectoryLocateTests {
    @Test("Finds <package root>/Stubs from a test file")
    func findsPackageStubs() throws {
        let url = try StubsDirectory.locate(from: #filePath)
        #expect(url.lastPathComponent == "Stubs")
        #expect(
            FileManager.default.fileExists(
                atPath: url.deletingLastPathComponent().appendingPathComponent("Package.swift").path))
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("mappings/hello.json").path))
    }

    @Test("A nested package without its own folder finds the one above; its own folder wins")
    func nestedPackage() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("locate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let testFile = root.appendingPathComponent("Examples/App/Tests/AppTests/AppTests.swift")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Stubs/mappings"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: testFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: root.appendingPathComponent("Examples/App/Package.swift"))

        #expect(try StubsDirectory.locate(from: testFile.path).path == root.appendingPathComponent("Stubs").path)

        // A Stubs folder next to the nested Package.swift wins, even before it has mappings/.
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Examples/App/Stubs"), withIntermediateDirectories: true)
        #expect(
            try StubsDirectory.locate(from: testFile.path).path
                == root.appendingPathComponent("Examples/App/Stubs").path)
    }

    @Test("A missing folder throws an error naming where it looked")
    func missing() {
        let error = #expect(throws: StubsLocateError.self) {
            try StubsDirectory.locate(named: "Nope-\(UUID().uuidString)", from: "/tmp/a/b/File.swift")
        }
        #expect(error?.searched == ["/tmp/a/b", "/tmp/a", "/tmp", "/"])
        #expect(
            error?.description.contains(
                "above /tmp/a/b/File.swift (with mappings/, or next to Package.swift), 4 directories:") == true)
    }
}
