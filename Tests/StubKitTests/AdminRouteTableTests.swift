import Testing

@testable import StubKit

/// The admin route table: which row a method and path resolve to, with what parameters, and the
/// 404 and 405 answers derived from it.
@Suite struct AdminRouteTableTests {
    private func resolve(_ method: String, _ path: String) throws(AdminError) -> AdminRoute.Resolved {
        try AdminRoute.resolve(method: method, segments: path.split(separator: "/").map(String.init))
    }

    private func pattern(_ resolved: AdminRoute.Resolved) -> String {
        resolved.route.pattern.map { segment in
            switch segment {
            case .literal(let literal): literal
            case .parameter: "{}"
            case .rest: "{...}"
            }
        }.joined(separator: "/")
    }

    @Test func everyMethodAndPatternIsOneRow() {
        var seen: Set<String> = []
        for route in AdminRoute.table {
            let key = route.method + " " + route.pattern.map { "\($0)" }.joined(separator: "/")
            #expect(seen.insert(key).inserted, "\(key) is in the table twice")
        }
        #expect(AdminRoute.table.count == 74)
    }

    @Test func fixedNamesWinOverParameters() throws {
        #expect(pattern(try resolve("POST", "mappings/reset")) == "mappings/reset")
        #expect(pattern(try resolve("GET", "mappings/unmatched")) == "mappings/unmatched")
        let stub = try resolve("DELETE", "mappings/2f1b")
        #expect(pattern(stub) == "mappings/{}")
        #expect(stub.parameters == ["2f1b"])
        // A fixed name with another method is a 405, never the stub with that id.
        #expect(throws: AdminError.methodNotAllowed(method: "GET", path: "/__admin/mappings/reset", allowed: ["POST"]))
        {
            try resolve("GET", "mappings/reset")
        }
        #expect(pattern(try resolve("GET", "requests/unmatched/near-misses")) == "requests/unmatched/near-misses")
        // A scenario name is one segment (an encoded slash stays inside it).
        #expect(try resolve("PUT", "scenarios/checkout%2Fflow/state").parameters == ["checkout%2Fflow"])
        #expect(throws: AdminError.notFound("no admin endpoint at /__admin/scenarios/checkout/flow/state")) {
            try resolve("PUT", "scenarios/checkout/flow/state")
        }
    }

    @Test func fileNamesKeepTheirFolders() throws {
        let file = try resolve("GET", "files/users/octocat.json")
        #expect(pattern(file) == "files/{...}")
        #expect(file.parameters == ["users/octocat.json"])
        #expect(try resolve("DELETE", "files/a").parameters == ["a"])
        #expect(pattern(try resolve("GET", "files")) == "files")
    }

    @Test func headTakesTheGetRouteAndIsAllowedWhereGetIs() throws {
        #expect(try resolve("HEAD", "health").route.method == "GET")
        #expect(
            throws: AdminError.methodNotAllowed(
                method: "PATCH", path: "/__admin/mappings",
                allowed: ["GET", "HEAD", "POST", "DELETE"])
        ) {
            try resolve("PATCH", "mappings")
        }
    }

    @Test func unknownPathsAre404() {
        for path in ["nope", "mappings/a/b", "scenarios/x", "requests/a/b", "recordings"] {
            #expect(throws: AdminError.notFound("no admin endpoint at /__admin/" + path)) {
                try resolve("GET", path)
            }
        }
    }

    @Test func listingsAreTheJournalTheFoundAndUnmatchedRequestsAndTheStubs() {
        let listings = AdminRoute.table.compactMap { route -> String? in
            guard case .listing = route.answer else { return nil }
            return route.method + " " + route.pattern.map { "\($0)" }.joined(separator: "/")
        }
        #expect(listings.count == 5)
        // The root lists the stubs, as WireMock's `/__admin/`.
        #expect((try? resolve("GET", "")).map(pattern) == "")
    }
}

/// The remote client's calls are made from the table's rows, so each resolves to the row it names, and a
/// parameter comes back to the server as it was given, whatever its characters.
@Suite struct AdminCallTests {
    /// The route the server resolves `call` to, from its path as sent.
    private func resolve(_ call: AdminCall) throws(AdminError) -> AdminRoute.Resolved {
        try AdminRoute.resolve(
            method: call.method, segments: AdminRoute.segments(ofRawPath: Substring("/__admin" + call.path)))
    }

    @Test func everyCallOfTheClientResolvesToItsRow() throws {
        #expect(AdminCall.Endpoint.allCases.count == 39)
        for endpoint in AdminCall.Endpoint.allCases {
            let call = AdminCall(endpoint, Array(repeating: "x", count: endpoint.parameterCount))
            let resolved = try resolve(call)
            #expect(resolved.route.method == call.method, "\(call.method) \(call.path)")
            #expect(resolved.parameters.count == endpoint.parameterCount, "\(call.method) \(call.path)")
        }
        #expect(AdminCall(.removeMapping, "2f1b").method == "DELETE")
        #expect(AdminCall(.removeMapping, "2f1b").path == "/mappings/2f1b")
        #expect(AdminCall(.unusedMappings).path == "/mappings/unmatched")
    }

    @Test(arguments: ["plain", "a b", "a/b", "ü%41?#&=+;", "2f1b-9c"])
    func parametersArriveAsGiven(_ value: String) throws {
        #expect(try resolve(AdminCall(.setScenarioState, value)).parameters == [value])
        let removal = try resolve(AdminCall(.removeMapping, value))
        #expect(removal.route.method == "DELETE")
        #expect(removal.parameters == [value])
    }
}
