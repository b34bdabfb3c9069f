import Foundation
import StubServerTestSupport
import StubTesting
import Testing

/// WireMock scenarios: states start at `Started`, a matching stub moves its scenario on atomically
/// (of 50 racing requests exactly one sees the old state), and the admin API and the Swift API read,
/// set and reset states.
@Suite("Scenarios")
struct ScenarioTests {
    private func todoServer() throws -> StubServer {
        let server = try StubServer.start()
        server.stub(.get("/todo"), .json(["items": []]), scenario: "To do", whenState: "Started")
        server.stub(.post("/todo"), .status(201), scenario: "To do", whenState: "Started", newState: "Added")
        server.stub(.get("/todo"), .json(["items": ["milk"]]), scenario: "To do", whenState: "Added")
        return server
    }

    @Test("A scenario walks from Started through the states its stubs name")
    func walk() async throws {
        let server = try todoServer()
        try await shuttingDown(server) {
            #expect(server.scenarioState("To do") == "Started")
            #expect(try await HTTP.get(server, "/todo").text == #"{"items":[]}"#)
            #expect(try await HTTP.send(server, "POST", "/todo").status == 201)
            #expect(server.scenarioState("To do") == "Added")
            #expect(try await HTTP.get(server, "/todo").text == #"{"items":["milk"]}"#)
            // No stub for POST in state Added.
            #expect(try await HTTP.send(server, "POST", "/todo").status == 404)
            server.resetScenarios()
            #expect(try await HTTP.get(server, "/todo").text == #"{"items":[]}"#)
            try server.setScenarioState("To do", to: "Added")
            #expect(try await HTTP.get(server, "/todo").text == #"{"items":["milk"]}"#)
            #expect(throws: ScenarioError.unknownScenario("Nope")) {
                try server.setScenarioState("Nope", to: "Started")
            }
            #expect(throws: ScenarioError.self) { try server.setScenarioState("To do", to: "Bogus") }
            #expect(server.scenarios.map(\.possibleStates) == [["Added", "Started"]])
        }
    }

    @Test("Of 50 concurrent requests, exactly one sees the old state")
    func atomicTransition() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/race"), .text("first"), scenario: "Race", whenState: "Started", newState: "Taken")
            server.stub(.get("/race"), .text("later"), scenario: "Race", whenState: "Taken")
            let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<50 { group.addTask { try await HTTP.get(server, "/race").text } }
                var bodies: [String] = []
                for try await body in group { bodies.append(body) }
                return bodies
            }
            #expect(bodies.count == 50)
            #expect(bodies.filter { $0 == "first" }.count == 1)
            #expect(bodies.filter { $0 == "later" }.count == 49)
        }
    }

    @Test("Admin API: list, set, reset; POST /__admin/reset resets scenarios too")
    func admin() async throws {
        let server = try todoServer()
        try await shuttingDown(server) {
            let listed = try await HTTP.get(server, "/__admin/scenarios").json()
            let scenarios = try #require(listed["scenarios"] as? [[String: Any]])
            #expect(scenarios.count == 1)
            #expect(scenarios.first?["id"] as? String == "To do")
            #expect(scenarios.first?["name"] as? String == "To do")
            #expect(scenarios.first?["state"] as? String == "Started")
            #expect(scenarios.first?["possibleStates"] as? [String] == ["Added", "Started"])
            #expect((scenarios.first?["mappings"] as? [Any])?.count == 3)

            let set = try await HTTP.send(
                server, "PUT", "/__admin/scenarios/To%20do/state", body: Data(#"{"state": "Added"}"#.utf8))
            #expect(set.status == 200)
            #expect(server.scenarioState("To do") == "Added")
            let unknown = try await HTTP.send(
                server, "PUT", "/__admin/scenarios/Nope/state", body: Data(#"{"state": "Added"}"#.utf8))
            #expect(unknown.status == 404)
            #expect(unknown.text.contains("Scenario Nope does not exist"))
            let badState = try await HTTP.send(
                server, "PUT", "/__admin/scenarios/To%20do/state", body: Data(#"{"state": "Bogus"}"#.utf8))
            #expect(badState.status == 422)
            #expect(badState.text.contains("does not support state Bogus"))
            let noState = try await HTTP.send(server, "PUT", "/__admin/scenarios/To%20do/state", body: Data("{}".utf8))
            #expect(noState.status == 422)

            #expect(try await HTTP.send(server, "POST", "/__admin/scenarios/reset").status == 200)
            #expect(server.scenarioState("To do") == "Started")
            try server.setScenarioState("To do", to: "Added")
            #expect(try await HTTP.send(server, "POST", "/__admin/reset").status == 200)
            #expect(server.scenarioState("To do") == "Started")
        }
    }

    @Test("Scenario stubs load from mapping JSON")
    func fromJSON() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            try server.stub(
                mappingJSON:
                    #"{"scenarioName": "Login", "requiredScenarioState": "Started", "newScenarioState": "In", "request": {"method": "POST", "url": "/login"}, "response": {"status": 204}}"#
            )
            try server.stub(
                mappingJSON:
                    #"{"scenarioName": "Login", "requiredScenarioState": "In", "request": {"url": "/me"}, "response": {"body": "jane"}}"#
            )
            #expect(try await HTTP.get(server, "/me").status == 404)
            #expect(try await HTTP.send(server, "POST", "/login").status == 204)
            #expect(try await HTTP.get(server, "/me").text == "jane")
        }
    }
}
