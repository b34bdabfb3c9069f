import StubHTTP

/// `/__admin/scenarios`: WireMock's scenario listing, reset and state change.
extension AdminAPI {
    /// `GET /__admin/scenarios`: `{"scenarios": [{"id", "name", "state", "possibleStates", "mappings"}]}`.
    func listScenarios() -> HTTPResponse {
        AdminResponse.json(["scenarios": .array(store.scenarios.map(\.json))])
    }

    /// `POST /__admin/scenarios/reset`: every scenario back to `Started`.
    func resetScenarios() -> HTTPResponse {
        store.states.resetScenarios()
        return AdminResponse.empty
    }

    /// `PUT /__admin/scenarios/{name}/state` with `{"state": "..."}`, or with no body to move the scenario back
    /// to `Started` (WireMock's `resetScenario(name)`): 404 for an unknown scenario, 422 for a state none of its
    /// stubs names (as WireMock).
    func setScenarioState(_ name: String, _ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let json = body.isEmpty ? ["state": .string(Scenario.started)] : try Self.parseBody(body)
        guard case .string(let state)? = json["state"] else {
            throw AdminError(
                status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid scenario state",
                detail: "state: expected a string, found \(json["state"]?.foundDescription ?? "nothing")",
                pointer: "/state")
        }
        do {
            try store.setScenarioState(name, to: state)
        } catch {
            switch error {
            case .unknownScenario:
                throw AdminError(
                    status: .notFound, code: 404, title: error.description, detail: error.description, pointer: nil)
            case .unknownState:
                throw AdminError(
                    status: .unprocessableEntity, code: 11, title: error.description, detail: error.description,
                    pointer: "/state")
            }
        }
        return AdminResponse.empty
    }
}
