import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// The admin endpoints added for WireMock 2.35 clients (requests reset/remove, paging, metadata,
/// save, dead stubs, files, settings, version, shutdown), over real sockets, with bad input.
@Suite("Admin API: the rest of WireMock's endpoints")
struct AdminAPIEndpointsTests {
    typealias Fixture = AdminAPITests.Fixture

    /// After bad input the server still answers.
    private func expectStillServing(_ fixture: Fixture) async throws {
        #expect(try await fixture.call("GET", "/file-a").text == "A")
    }

    private func errorDetail(_ response: Fetched) throws -> String {
        let errors = try #require(try response.json()["errors"] as? [[String: Any]])
        return try #require(errors.first?["detail"] as? String)
    }

    // MARK: - Requests

    @Test("POST /__admin/requests/reset clears the journal (the legacy path clients still use)")
    func resetRequests() async throws {
        let fixture = try Fixture()
        _ = try await fixture.call("GET", "/file-a")
        let reset = try await fixture.call("POST", "/__admin/requests/reset")
        #expect(reset.status == 200)
        #expect(fixture.server.requests.isEmpty)
        #expect(try await fixture.call("GET", "/__admin/requests/reset").status == 405)
    }

    @Test("DELETE /__admin/requests/{id} removes one serve event; an unknown id is 404")
    func deleteOneRequest() async throws {
        let fixture = try Fixture()
        _ = try await fixture.call("GET", "/file-a")
        _ = try await fixture.call("GET", "/file-b")
        let listed = try #require(
            try await fixture.call("GET", "/__admin/requests").json()["requests"] as? [[String: Any]])
        let newest = try #require(listed.first?["id"] as? String)
        #expect(try await fixture.call("DELETE", "/__admin/requests/\(newest)").status == 200)
        #expect(fixture.server.requests.map(\.request.target) == ["/file-a"])
        #expect(try await fixture.call("DELETE", "/__admin/requests/\(newest)").status == 404)
        #expect(try await fixture.call("DELETE", "/__admin/requests/not-an-id").status == 404)
        try await expectStillServing(fixture)
    }

    @Test("POST /__admin/requests/remove removes the requests matching a pattern and returns them")
    func removeByPattern() async throws {
        let fixture = try Fixture()
        _ = try await fixture.call("GET", "/file-a")
        _ = try await fixture.call("GET", "/file-b")
        _ = try await fixture.call("GET", "/file-a")
        let removed = try await fixture.call(
            "POST", "/__admin/requests/remove", #"{"method": "GET", "url": "/file-a"}"#)
        #expect(removed.status == 200)
        let events = try #require(try removed.json()["serveEvents"] as? [[String: Any]])
        #expect(events.count == 2)
        #expect(fixture.server.requests.map(\.request.target) == ["/file-b"])
        let bad = try await fixture.call("POST", "/__admin/requests/remove", #"{"method": 7}"#)
        #expect(bad.status == 422)
        #expect(try errorDetail(bad).contains("method"))
        #expect(try await fixture.call("POST", "/__admin/requests/remove", "{not json").status == 422)
        try await expectStillServing(fixture)
    }

    @Test("GET /__admin/requests?limit=&since= pages and filters by time; bad values are 422")
    func limitAndSince() async throws {
        let fixture = try Fixture()
        _ = try await fixture.call("GET", "/file-a")
        _ = try await fixture.call("GET", "/file-b")
        let limited = try #require(
            try await fixture.call("GET", "/__admin/requests?limit=1").json()["requests"] as? [[String: Any]])
        #expect(limited.count == 1)
        let future = try #require(
            try await fixture.call("GET", "/__admin/requests?since=2999-01-01T00:00:00Z").json()["requests"] as? [Any])
        #expect(future.isEmpty)
        let past = try #require(
            try await fixture.call("GET", "/__admin/requests?since=2000-01-01T00:00:00.000Z").json()["requests"]
                as? [Any])
        #expect(past.count == 2)
        for query in ["limit=-1", "limit=x", "since=yesterday"] {
            let bad = try await fixture.call("GET", "/__admin/requests?\(query)")
            #expect(bad.status == 422, "\(query)")
        }
        try await expectStillServing(fixture)
    }

    @Test("A serve event has the response's headers and body, and WireMock's timing")
    func serveEventResponseAndTiming() async throws {
        let fixture = try Fixture()
        fixture.server.stub(.get("/slow"), .text("later").withHeader("X-Kind", "slow").withDelay(milliseconds: 20))
        _ = try await fixture.call("GET", "/slow")
        let events = try #require(
            try await fixture.call("GET", "/__admin/requests").json()["requests"] as? [[String: Any]])
        let event = try #require(events.first)
        let response = try #require(event["response"] as? [String: Any])
        #expect(response["body"] as? String == "later")
        #expect(response["bodyAsBase64"] as? String == Data("later".utf8).base64EncodedString())
        #expect((response["headers"] as? [String: Any])?["X-Kind"] as? String == "slow")
        let timing = try #require(event["timing"] as? [String: Any])
        #expect(timing["addedDelay"] as? Int == 20)
        for key in ["processTime", "serveTime", "totalTime", "responseSendTime"] {
            #expect(timing[key] is Int, "\(key)")
        }
        #expect((timing["totalTime"] as? Int ?? 0) >= 20)
    }

    @Test("POST /__admin/near-misses/request finds the stubs closest to a logged request")
    func nearMissesForRequest() async throws {
        let fixture = try Fixture()
        let response = try await fixture.call(
            "POST", "/__admin/near-misses/request", #"{"url": "/file-c", "method": "GET"}"#)
        #expect(response.status == 200)
        let misses = try #require(try response.json()["nearMisses"] as? [[String: Any]])
        #expect(misses.count == 2)
        #expect(misses.allSatisfy { $0["stubMapping"] is [String: Any] && $0["matchResult"] is [String: Any] })
        let bad = try await fixture.call("POST", "/__admin/near-misses/request", #"{"method": "GET"}"#)
        #expect(bad.status == 422)
        #expect(try errorDetail(bad).hasPrefix("url:"))
        try await expectStillServing(fixture)
    }

    // MARK: - Mappings

    @Test("GET /__admin/mappings?limit=&offset= pages the stubs; meta.total counts all")
    func mappingsPaging() async throws {
        let fixture = try Fixture()
        fixture.server.stub(.get("/r1"), .text("1"))
        let page = try await fixture.call("GET", "/__admin/mappings?limit=1&offset=1").json()
        let mappings = try #require(page["mappings"] as? [[String: Any]])
        #expect(mappings.count == 1)
        #expect(mappings.first?["id"] as? String == Fixture.fileStubID)  // newest first: r1, b, a
        #expect((page["meta"] as? [String: Any])?["total"] as? Int == 3)
        #expect(try await fixture.call("GET", "/__admin/mappings?offset=-2").status == 422)
    }

    @Test("find-by-metadata and remove-by-metadata select stubs by their metadata")
    func metadata() async throws {
        let fixture = try Fixture()
        for (url, team) in [("/ios", "ios"), ("/web", "web")] {
            let body =
                #"{"request": {"url": "\#(url)"}, "response": {"status": 200}, "metadata": {"team": "\#(team)"}}"#
            #expect(try await fixture.call("POST", "/__admin/mappings", body).status == 201)
        }
        let pattern = #"{"matchesJsonPath": {"expression": "$.team", "equalTo": "ios"}}"#
        let found = try await fixture.call("POST", "/__admin/mappings/find-by-metadata", pattern).json()
        let mappings = try #require(found["mappings"] as? [[String: Any]])
        #expect(mappings.count == 1)
        #expect((mappings.first?["metadata"] as? [String: Any])?["team"] as? String == "ios")
        #expect(try await fixture.call("POST", "/__admin/mappings/remove-by-metadata", pattern).status == 200)
        #expect(fixture.server.mappings.count == 3)
        #expect(!fixture.server.mappings.contains { $0.request.url == .url("/ios") })
        let bad = try await fixture.call("POST", "/__admin/mappings/find-by-metadata", #"{"nope": 1}"#)
        #expect(bad.status == 422)
        #expect(
            try await fixture.call("POST", "/__admin/mappings", #"{"request": {}, "response": {}, "metadata": 3}"#)
                .status == 422)
        try await expectStillServing(fixture)
    }

    @Test("POST /__admin/mappings/save writes runtime stubs as readable files, never over a user's file")
    func save() async throws {
        let fixture = try Fixture()
        let handle = fixture.server.stub(.get("/users/octocat"), .text("hi"), name: "Octocat profile")
        let taken = fixture.root.appendingPathComponent("mappings/saved-octocat-profile-\(handle.id.prefix(8)).json")
        // A stub of the user's own (valid: the reset below reads every file again).
        let own = #"{"request": {"url": "/users-own"}, "response": {"body": "the user's own stub"}}"#
        try Data(own.utf8).write(to: taken)
        #expect(try await fixture.call("POST", "/__admin/mappings/save").status == 200)
        #expect(try String(contentsOf: taken, encoding: .utf8) == own)
        let second = taken.deletingPathExtension().path + "-2.json"
        let saved =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: second))) as? [String: Any]
        #expect(saved?["name"] as? String == "Octocat profile")
        // The saved stub now counts as a file stub: a reset (which reads the files again) keeps it, and a second
        // save writes nothing new.
        #expect(try await fixture.call("POST", "/__admin/reset").status == 200)
        #expect(fixture.server.mappings.contains { $0.id == handle.id })
        #expect(try await HTTP.get(fixture.server, "/users-own").text == "the user's own stub")
        #expect(try await fixture.call("POST", "/__admin/mappings/save").status == 200)
        let files = try FileManager.default.contentsOfDirectory(
            atPath: fixture.root.appendingPathComponent("mappings").path)
        #expect(
            files.sorted()
                == ["a.json", "b.json", taken.lastPathComponent, URL(fileURLWithPath: second).lastPathComponent]
                .sorted())

        let bare = try StubServer.start()
        try await shuttingDown(bare) { () async throws in
            #expect(try await HTTP.send(bare, "POST", "/__admin/mappings/save").status == 422)
        }
    }

    @Test("GET /__admin/mappings/unmatched lists the stubs no request used since the journal was cleared")
    func deadStubs() async throws {
        let fixture = try Fixture()
        func unused() async throws -> [String] {
            let list = try await fixture.call("GET", "/__admin/mappings/unmatched").json()
            return try #require(list["mappings"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        }
        #expect(try await unused().count == 2)
        _ = try await fixture.call("GET", "/file-b")
        #expect(try await unused().count == 1)
        #expect(try await !unused().contains(Fixture.fileStubID))
        #expect(fixture.server.unusedStubs.count == 1)
        _ = try await fixture.call("POST", "/__admin/requests/reset")
        #expect(try await unused().count == 2)
    }

    // MARK: - Files

    @Test("/__admin/files lists, reads, writes and deletes files under __files")
    func files() async throws {
        let fixture = try Fixture()
        #expect(try await fixture.call("PUT", "/__admin/files/users/new.json", #"{"x": 1}"#).status == 200)
        let list = try await fixture.call("GET", "/__admin/files")
        let names = try #require(try JSONSerialization.jsonObject(with: list.body) as? [String])
        #expect(names == ["hello.json", "users/new.json"])
        #expect(try await fixture.call("GET", "/__admin/files/users/new.json").text == #"{"x": 1}"#)
        #expect(try await fixture.call("DELETE", "/__admin/files/users/new.json").status == 200)
        #expect(try await fixture.call("GET", "/__admin/files/users/new.json").status == 404)
        #expect(try await fixture.call("DELETE", "/__admin/files/users/new.json").status == 404)
        try await expectStillServing(fixture)
    }

    @Test("/__admin/files names cannot escape __files: .., absolute paths and symlinks are 422")
    func filesConfined() async throws {
        let fixture = try Fixture()
        let outside = fixture.root.appendingPathComponent("secret.txt")
        try Data("secret".utf8).write(to: outside)
        let files = fixture.root.appendingPathComponent("__files")
        try FileManager.default.createSymbolicLink(
            atPath: files.appendingPathComponent("out").path, withDestinationPath: fixture.root.path)
        for (method, path) in [
            ("GET", "%2e%2e/secret.txt"), ("PUT", "%2e%2e/evil.txt"), ("DELETE", "%2e%2e/secret.txt"),
            ("GET", "out/secret.txt"), ("PUT", "out/evil.txt"), ("DELETE", "out/secret.txt")
        ] {
            let response = try await fixture.call(method, "/__admin/files/\(path)", method == "PUT" ? "x" : nil)
            #expect(response.status == 422, "\(method) \(path): \(response.text)")
        }
        #expect(try String(contentsOf: outside, encoding: .utf8) == "secret")
        #expect(!FileManager.default.fileExists(atPath: fixture.root.appendingPathComponent("evil.txt").path))
        let names =
            try JSONSerialization.jsonObject(with: try await fixture.call("GET", "/__admin/files").body) as? [String]
        #expect(names == ["hello.json"])
        try await expectStillServing(fixture)
    }

    @Test("PUT /__admin/files/%2Fetc%2Fpasswd is an absolute name: 422, nothing written")
    func filesEncodedAbsoluteName() async throws {
        let fixture = try Fixture()
        for method in ["GET", "PUT", "DELETE"] {
            let response = try await fixture.call(method, "/__admin/files/%2Fetc%2Fpasswd", method == "PUT" ? "x" : nil)
            #expect(response.status == 422, "\(method): \(response.text)")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.root.appendingPathComponent("__files/etc").path))
        // An encoded slash inside a relative name is a folder, as a plain one is.
        #expect(try await fixture.call("PUT", "/__admin/files/users%2Fnew.json", "y").status == 200)
        #expect(try await fixture.call("GET", "/__admin/files/users/new.json").text == "y")
        try await expectStillServing(fixture)
    }

    // MARK: - Ids and names with a slash

    /// A stub whose id and scenario name hold a `/`, as a stub file may.
    private static let slashedStub = #"""
        {"id": "team/one", "scenarioName": "checkout/flow", "requiredScenarioState": "Started",
         "newScenarioState": "paid", "request": {"method": "GET", "url": "/pay"}, "response": {"status": 200, "body": "paid"}}
        """#

    @Test("An id and a scenario name with a '/' are reached as %2F: the path is split before it is decoded")
    func slashInIDAndScenarioName() async throws {
        let fixture = try Fixture()
        try Data(Self.slashedStub.utf8).write(to: fixture.root.appendingPathComponent("mappings/slashed.json"))
        _ = try fixture.server.reloadStubs()

        let fetched = try await fixture.call("GET", "/__admin/mappings/team%2Fone")
        #expect(fetched.status == 200, "\(fetched.text)")
        #expect(try fetched.json()["id"] as? String == "team/one")

        let moved = try await fixture.call("PUT", "/__admin/scenarios/checkout%2Fflow/state", #"{"state": "paid"}"#)
        #expect(moved.status == 200, "\(moved.text)")
        let scenarios = try #require(
            try await fixture.call("GET", "/__admin/scenarios").json()["scenarios"] as? [[String: Any]])
        #expect(scenarios.first { $0["name"] as? String == "checkout/flow" }?["state"] as? String == "paid")

        // Still one segment each: the unencoded forms are other paths.
        #expect(try await fixture.call("GET", "/__admin/mappings/team/one").status == 404)
        #expect(try await fixture.call("DELETE", "/__admin/mappings/team%2Fone").status == 200)
        #expect(try await fixture.call("GET", "/__admin/mappings/team%2Fone").status == 404)
        try await expectStillServing(fixture)
    }

    @Test("StubServerClient reaches ids and scenario names with a '/' (it sends them as %2F)")
    func slashThroughClient() async throws {
        let fixture = try Fixture()
        try Data(Self.slashedStub.utf8).write(to: fixture.root.appendingPathComponent("mappings/slashed.json"))
        _ = try fixture.server.reloadStubs()
        let client = StubServerClient(baseURL: fixture.server.baseURL)
        try await client.setScenarioState("checkout/flow", to: "paid")
        #expect(try await client.scenarioState("checkout/flow") == "paid")
        #expect(try await client.removeStub(id: "team/one"))
        #expect(try await !client.removeStub(id: "team/one"))
        try await expectStillServing(fixture)
    }

    // MARK: - Server

    @Test("GET|POST /__admin/settings: a global fixedDelay is kept and applied; bad values are 422")
    func settings() async throws {
        let fixture = try Fixture()
        #expect(
            try await fixture.call("POST", "/__admin/settings", #"{"fixedDelay": 15, "extended": {"a": 1}}"#).status
                == 200)
        let read = try await fixture.call("GET", "/__admin/settings").json()
        let settings = try #require(read["settings"] as? [String: Any])
        #expect(settings["fixedDelay"] as? Int == 15)
        #expect(fixture.server.settings.fixedDelayMilliseconds == 15)
        _ = try await fixture.call("GET", "/file-a")
        #expect(fixture.server.requests.last?.timing.addedDelay == .milliseconds(15))
        for body in [#"{"fixedDelay": -1}"#, #"{"fixedDelay": "x"}"#, #"{"fixedDelai": 1}"#, "[]"] {
            let bad = try await fixture.call("POST", "/__admin/settings", body)
            #expect(bad.status == 422, "\(body)")
        }
        #expect(
            try errorDetail(try await fixture.call("POST", "/__admin/settings", #"{"fixedDelai": 1}"#)).contains(
                "fixedDelay"))
        try await expectStillServing(fixture)
    }

    @Test("GET /__admin/version answers the version")
    func version() async throws {
        let fixture = try Fixture()
        let json = try await fixture.call("GET", "/__admin/version").json()
        #expect(json["version"] as? String == StubServer.version)
    }

    @Test("POST /__admin/shutdown answers, then stops an in-process server")
    func shutdown() async throws {
        let fixture = try Fixture()
        #expect(try await fixture.call("POST", "/__admin/shutdown").status == 200)
        let stopped = await eventually(every: .milliseconds(20)) {
            (try? await fixture.call("GET", "/__admin/health")) == nil
        }
        #expect(stopped)
    }
}
