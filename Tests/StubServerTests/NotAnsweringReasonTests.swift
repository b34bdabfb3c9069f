import Foundation
import StubServerTestSupport
import StubTesting
import Testing

/// A request that matches a stateful stub which does not answer now gets a 404 whose near-miss report says
/// why (its scenario's state, its used-up limit, its finished sequence) instead of "0 differences".
@Suite("Near misses name why a matching stub does not answer")
struct NotAnsweringReasonTests {
    @Test("A scenario in another state: the report names the scenario, the state needed and the state it is in")
    func scenarioState() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/profile"), .text("me"), scenario: "Login", whenState: "LoggedIn")
            server.stub(.post("/logout"), .status(204), scenario: "Login", whenState: "LoggedIn", newState: "LoggedOut")
            let missed = try await HTTP.get(server, "/profile")
            #expect(missed.status == 404)
            #expect(
                missed.text.contains(
                    #"matches, but does not answer now: scenario "Login" needs state "LoggedIn", is "Started""#))
            #expect(!missed.text.contains("0 differences"))
            // Moved on, it answers; moved elsewhere, the report follows the state (it is not reused).
            try server.setScenarioState("Login", to: "LoggedIn")
            #expect(try await HTTP.get(server, "/profile").text == "me")
            try server.setScenarioState("Login", to: "LoggedOut")
            #expect(try await HTTP.get(server, "/profile").text.contains(#"needs state "LoggedIn", is "LoggedOut""#))
        }
    }

    @Test("A use limit reached and a finished sequence each say so")
    func usedUpAndFinished() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/once"), .text("1"), times: 1)
            server.stubSequence(.post("/token"), [.status(500), .text("t")], .thenNotFound)
            #expect(try await HTTP.get(server, "/once").text == "1")
            #expect(
                try await HTTP.get(server, "/once").text.contains(
                    "matches, but does not answer now: used up: times 1, used 1"))
            for _ in 0..<2 { _ = try await HTTP.send(server, "POST", "/token") }
            let finished = try await HTTP.send(server, "POST", "/token")
            #expect(finished.status == 404)
            #expect(
                finished.text.contains("matches, but does not answer now: sequence finished: its 2 responses were sent")
            )
        }
    }

    @Test("A stub that differs keeps its list of differences")
    func differencesStillListed() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/profile"), .text("me"), scenario: "Login", whenState: "LoggedIn")
            let missed = try await HTTP.get(server, "/profiles")
            #expect(missed.text.contains("1 difference"))
            #expect(!missed.text.contains("does not answer now"))
        }
    }
}
