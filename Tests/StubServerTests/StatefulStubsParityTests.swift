import Foundation
import StubServerTestSupport
import StubTesting
import Testing

/// Use limits, scenario steps and sequences through the shared protocol: one generic test body, run against an
/// in-process server, a client of a server over its admin API, and `AnyStubServer` around each. It compiles
/// against every kind, and each answers the same.
@Suite("Stateful stubs behave the same in-process and over the admin API")
struct StatefulStubsParityTests {
    /// Adds the stubs through `admin`, then drives `server` (the server `admin` reaches) over HTTP.
    private static func stubAndDrive(_ admin: some StubServerAdmin, _ server: StubServer) async throws {
        try await admin.stub(.get("/feed"), .text("normal"), priority: 5, name: nil)
        try await admin.stub(.get("/feed"), .status(503), times: 1, priority: 1, name: "one outage")
        try await admin.stub(
            .get("/todo"), .json(["items": []]), scenario: "Todo", whenState: "Started", newState: nil,
            priority: 5, name: nil)
        try await admin.stub(
            .post("/todo"), .status(201), scenario: "Todo", whenState: "Started", newState: "Added",
            priority: 5, name: nil)
        try await admin.stub(
            .get("/todo"), .json(["items": ["milk"]]), scenario: "Todo", whenState: "Added", newState: nil,
            priority: 5, name: nil)
        try await admin.stubSequence(.post("/token"), [.status(500), .text("t")], .thenNotFound, priority: 5, name: nil)

        var feed: [Int] = []
        for _ in 0..<3 { feed.append(try await HTTP.get(server, "/feed").status) }
        #expect(feed == [503, 200, 200])
        #expect(try await HTTP.get(server, "/todo").text == #"{"items":[]}"#)
        #expect(try await HTTP.send(server, "POST", "/todo").status == 201)
        #expect(try await HTTP.get(server, "/todo").text == #"{"items":["milk"]}"#)
        #expect(try await admin.scenarioState("Todo") == "Added")
        var token: [Int] = []
        for _ in 0..<3 { token.append(try await HTTP.send(server, "POST", "/token").status) }
        #expect(token == [500, 200, 404])
    }

    @Test("In-process StubServer")
    func inProcess() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) { try await Self.stubAndDrive(server, server) }
    }

    @Test("StubServerClient over the admin API")
    func client() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            try await Self.stubAndDrive(StubServerClient(baseURL: server.baseURL), server)
        }
    }

    @Test("AnyStubServer around an in-process server and around a client")
    func anyStubServer() async throws {
        let local = try StubServer.start()
        try await shuttingDown(local) { try await Self.stubAndDrive(AnyStubServer(local), local) }
        let remote = try StubServer.start()
        try await shuttingDown(remote) {
            try await Self.stubAndDrive(AnyStubServer(StubServerClient(baseURL: remote.baseURL)), remote)
        }
    }
}
