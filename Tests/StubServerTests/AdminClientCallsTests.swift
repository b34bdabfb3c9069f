import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// The calls WireMock's own clients make that go beyond the plain endpoints (WireMock 2's `editStub` and
/// `removeStub`, `resetScenario`, serve-event queries, WireMock's listing order), and the JSON their strict
/// parsers read, over real sockets. `.ci/java-client/WireMockClientCheck.java` drives the same calls with
/// WireMock's Java client itself.
@Suite("Admin API: the calls of WireMock's clients")
struct AdminClientCallsTests {
    typealias Fixture = AdminAPITests.Fixture

    private func post(_ fixture: Fixture, _ json: String) async throws -> String {
        let created = try await fixture.call("POST", "/__admin/mappings", json)
        #expect(created.status == 201)
        return try #require(try created.json()["id"] as? String)
    }

    // MARK: - Stubs

    @Test("POST /__admin/mappings/edit replaces the stub with the body's id in place: 204; unknown id 404")
    func edit() async throws {
        let fixture = try Fixture()
        let id = try await post(fixture, #"{"request": {"url": "/x"}, "response": {"body": "one"}}"#)
        let later = try await post(fixture, #"{"request": {"url": "/later"}, "response": {"body": "l"}}"#)
        let edited = try await fixture.call(
            "POST", "/__admin/mappings/edit",
            #"{"id": "\#(id)", "request": {"url": "/x"}, "response": {"body": "two"}}"#)
        #expect(edited.status == 204)
        #expect(try await fixture.call("GET", "/x").text == "two")
        // In place: still older than the stub added after it.
        #expect(try await fixture.listedIDs().prefix(2) == [later, id])

        let unknown = try await fixture.call(
            "POST", "/__admin/mappings/edit",
            #"{"id": "99999999-9999-4999-8999-999999999999", "request": {}, "response": {}}"#)
        #expect(unknown.status == 404)
        #expect(unknown.text.contains("99999999-9999-4999-8999-999999999999"))
        #expect(try await fixture.call("POST", "/__admin/mappings/edit", "{").status == 422)
        #expect(try await fixture.call("GET", "/x").text == "two")
    }

    @Test("POST /__admin/mappings/remove removes by id, else every stub with an equal request pattern")
    func removeMatching() async throws {
        let fixture = try Fixture()
        let first = try await post(fixture, #"{"request": {"method": "GET", "url": "/r"}, "response": {"body": "1"}}"#)
        _ = try await post(fixture, #"{"request": {"method": "GET", "url": "/r"}, "response": {"body": "2"}}"#)
        let other = try await post(fixture, #"{"request": {"method": "POST", "url": "/r"}, "response": {}}"#)

        let byID = try await fixture.call(
            "POST", "/__admin/mappings/remove",
            #"{"id": "\#(first)", "request": {"url": "/elsewhere"}, "response": {}}"#)
        #expect(byID.status == 200)
        #expect(fixture.server.mappings.filter { $0.request.url == .url("/r") }.count == 2)

        // An id no stub has: the pattern decides (WireMock's removeStub(MappingBuilder) sends a random id).
        let byPattern = try await fixture.call(
            "POST", "/__admin/mappings/remove",
            #"{"id": "99999999-9999-4999-8999-999999999999", "request": {"method": "GET", "url": "/r"}, "response": {}}"#
        )
        #expect(byPattern.status == 200)
        #expect(fixture.server.mappings.filter { $0.request.url == .url("/r") }.map(\.id) == [other])

        let nothing = try await fixture.call(
            "POST", "/__admin/mappings/remove", #"{"request": {"url": "/none"}, "response": {}}"#)
        #expect(nothing.status == 200)  // as WireMock: nothing to remove is no error
        #expect(fixture.server.mappings.count == 3)
        #expect(try await fixture.call("POST", "/__admin/mappings/remove", #"{"request": 3}"#).status == 422)
    }

    @Test("DELETE /__admin/mappings/unmatched removes the stubs no request used")
    func removeUnused() async throws {
        let fixture = try Fixture()
        _ = try await fixture.call("GET", "/file-a")
        #expect(try await fixture.call("DELETE", "/__admin/mappings/unmatched").status == 200)
        #expect(fixture.server.mappings.map(\.request.url) == [.url("/file-a")])
    }

    @Test("GET /__admin/mappings lists by priority, then newest first, each with its insertionIndex")
    func listingOrder() async throws {
        let fixture = try Fixture()
        let urgent = try await post(fixture, #"{"priority": 1, "request": {"url": "/u"}, "response": {}}"#)
        let older = try await post(fixture, #"{"request": {"url": "/o"}, "response": {}}"#)
        let newer = try await post(fixture, #"{"request": {"url": "/n"}, "response": {}}"#)
        let relaxed = try await post(fixture, #"{"priority": 9, "request": {"url": "/r"}, "response": {}}"#)
        let listed = try #require(
            try await fixture.call("GET", "/__admin/mappings").json()["mappings"] as? [[String: Any]])
        #expect(
            listed.compactMap { $0["id"] as? String }
                == [urgent, newer, older, Fixture.fileStubID, fixture.server.mappings[0].id, relaxed])
        // The order they were added: the two file stubs, then the four above.
        #expect(listed.compactMap { $0["insertionIndex"] as? Int } == [2, 4, 3, 1, 0, 5])

        let found = try await fixture.call(
            "POST", "/__admin/mappings/find-by-metadata", #"{"matches": ".*"}"#)
        #expect(found.status == 200)

        // The Swift client gives back the order they were added.
        let client = StubServerClient(baseURL: fixture.server.baseURL)
        #expect(try await client.mappings.map(\.id) == fixture.server.mappings.map(\.id))
    }

    @Test("POST /__admin/mappings/import: of two equal stubs, the first listed answers (as WireMock)")
    func importOrder() async throws {
        let fixture = try Fixture()
        let imported = try await fixture.call(
            "POST", "/__admin/mappings/import",
            """
            {"mappings": [{"request": {"url": "/i"}, "response": {"body": "first"}},
                          {"request": {"url": "/i"}, "response": {"body": "second"}},
                          {"id": "33333333-3333-4333-8333-333333333333", "request": {"url": "/d"}, "response": {"body": "a"}},
                          {"id": "33333333-3333-4333-8333-333333333333", "request": {"url": "/d"}, "response": {"body": "b"}}]}
            """)
        #expect(imported.status == 200)
        #expect(try await fixture.call("GET", "/i").text == "first")
        // One id twice: the first listed, imported last, replaced the other.
        #expect(try await fixture.call("GET", "/d").text == "a")
        #expect(fixture.server.mappings.filter { $0.id == "33333333-3333-4333-8333-333333333333" }.count == 1)
    }

    // MARK: - Scenarios

    @Test("PUT /__admin/scenarios/{name}/state with no body moves the scenario back to Started")
    func resetOneScenario() async throws {
        let fixture = try Fixture()
        for (state, next) in [("Started", "Two"), ("Two", "Three")] {
            _ = try await post(
                fixture,
                """
                {"scenarioName": "Flow", "requiredScenarioState": "\(state)", "newScenarioState": "\(next)",
                 "request": {"url": "/flow"}, "response": {"body": "\(state)"}}
                """)
        }
        _ = try await fixture.call("GET", "/flow")
        #expect(fixture.server.scenarioState("Flow") == "Two")
        #expect(try await fixture.call("PUT", "/__admin/scenarios/Flow/state").status == 200)
        #expect(fixture.server.scenarioState("Flow") == "Started")
        #expect(try await fixture.call("PUT", "/__admin/scenarios/Nowhere/state").status == 404)
        #expect(try await fixture.call("PUT", "/__admin/scenarios/Flow/state", "{}").status == 422)
    }

    // MARK: - The request journal

    @Test("GET /__admin/requests?unmatched=true&matchingStub=ID filter the serve events; meta.total counts them")
    func serveEventQuery() async throws {
        let fixture = try Fixture()
        for path in ["/file-a", "/nowhere", "/file-b", "/file-b", "/elsewhere"] {
            _ = try await fixture.call("GET", path)
        }
        func urls(_ query: String) async throws -> (urls: [String], total: Int?) {
            let json = try await fixture.call("GET", "/__admin/requests" + query).json()
            let events = try #require(json["requests"] as? [[String: Any]])
            return (
                events.compactMap { ($0["request"] as? [String: Any])?["url"] as? String },
                (json["meta"] as? [String: Any])?["total"] as? Int
            )
        }
        #expect(try await urls("?unmatched=true") == (["/elsewhere", "/nowhere"], 2))
        #expect(try await urls("?matchingStub=\(Fixture.fileStubID)") == (["/file-b", "/file-b"], 2))
        #expect(try await urls("?matchingStub=\(Fixture.fileStubID)&limit=1") == (["/file-b"], 2))
        #expect(try await urls("?unmatched=true&matchingStub=\(Fixture.fileStubID)") == ([], 0))
        #expect(try await urls("?unmatched=false").urls.count == 5)
        #expect(try await urls("?matchingStub=no-such-stub") == ([], 0))
    }

    @Test("POST /__admin/requests/remove-by-metadata removes the serve events of the stubs whose metadata matches")
    func removeEventsByStubMetadata() async throws {
        let fixture = try Fixture()
        _ = try await post(
            fixture, #"{"request": {"url": "/tagged"}, "response": {}, "metadata": {"suite": "events"}}"#)
        for path in ["/tagged", "/file-a", "/tagged", "/nowhere"] { _ = try await fixture.call("GET", path) }
        let removed = try await fixture.call(
            "POST", "/__admin/requests/remove-by-metadata",
            #"{"matchesJsonPath": {"expression": "$.suite", "equalTo": "events"}}"#)
        #expect(removed.status == 200)
        let events = try #require(try removed.json()["serveEvents"] as? [[String: Any]])
        #expect(events.compactMap { ($0["request"] as? [String: Any])?["url"] as? String } == ["/tagged", "/tagged"])
        #expect(fixture.server.requests.map(\.request.target) == ["/file-a", "/nowhere"])
        let bad = try await fixture.call("POST", "/__admin/requests/remove-by-metadata", #"{"nope": 1}"#)
        #expect(bad.status == 422)
    }

    @Test("A truncated response body's bodyTruncated and originalBodyLength come with ?stubserver=true only")
    func truncatedResponseDetail() async throws {
        var configuration = StubServer.Configuration()
        configuration.journal.maxBodyBytes = 16
        configuration.logsUnmatchedRequests = false
        let server = try StubServer(configuration: configuration)
        try server.start()
        try await shuttingDown(server) { () async throws in
            // A body made for the request (a template's) is the journal's own to cut; a stub's fixed body is shared.
            server.stub(.get("/big"), .text(String(repeating: "b", count: 97) + "{{request.method}}").templated())
            _ = try await HTTP.get(server, "/big")
            let listed = try await HTTP.get(server, "/__admin/requests").json()
            let id = try #require((listed["requests"] as? [[String: Any]])?.first?["id"] as? String)
            for query in ["", "?stubserver=true"] {
                let event = try await HTTP.send(server, "GET", "/__admin/requests/\(id)\(query)").json()
                let response = try #require(event["response"] as? [String: Any])
                #expect((response["body"] as? String)?.count == 16)
                if query.isEmpty {
                    // WireMock's Java client rejects a `response` with fields its LoggedResponse lacks.
                    #expect(Set(response.keys) == ["status", "headers", "bodyAsBase64", "body"])
                } else {
                    #expect(response["bodyTruncated"] as? Bool == true)
                    #expect(response["originalBodyLength"] as? Int == 100)
                }
            }
            // The Swift client asks for it.
            let client = StubServerClient(baseURL: server.baseURL)
            #expect(try await client.requests.first?.originalResponseBodyLength == 100)
        }
    }
}
