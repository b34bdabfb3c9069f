import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// The WireMock-style admin API under `/__admin`, called over real sockets with JSON bodies as a
/// CI script would send them with curl.
@Suite("Admin API")
struct AdminAPITests {
    // MARK: - Mappings

    @Test("GET /__admin/mappings lists the stubs, most recent first, with a total")
    func listMappings() async throws {
        let fixture = try Fixture()
        let runtime = fixture.server.stub(.get("/runtime"), .text("r"))
        let response = try await fixture.call("GET", "/__admin/mappings")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let json = try response.json()
        #expect((json["meta"] as? [String: Any])?["total"] as? Int == 3)
        let ids = try await fixture.listedIDs()
        #expect(ids.count == 3)
        #expect(ids.first == runtime.id)
        #expect(ids[1] == Fixture.fileStubID)  // b.json was loaded after a.json
    }

    @Test("POST /__admin/mappings adds a stub that serves traffic; 201 with the mapping and its id")
    func createMapping() async throws {
        let fixture = try Fixture()
        let created = try await fixture.call(
            "POST", "/__admin/mappings",
            """
            {"request": {"method": "GET", "urlPath": "/users/octocat"},
             "response": {"status": 201, "jsonBody": {"login": "octocat"}, "headers": {"X-Stub": "admin"}}}
            """)
        #expect(created.status == 201)
        let mapping = try created.json()
        let id = try #require(mapping["id"] as? String)
        #expect(mapping["uuid"] as? String == id)
        #expect((mapping["response"] as? [String: Any])?["status"] as? Int == 201)

        let served = try await HTTP.get(fixture.server, "/users/octocat")
        #expect(served.status == 201)
        #expect(served.text == #"{"login":"octocat"}"#)
        #expect(served.header("Matched-Stub-Id") == id)
        #expect(try await fixture.listedIDs().first == id)
    }

    @Test("POST /__admin/mappings keeps a given id, name and priority, and reads bodyFileName from __files")
    func createMappingWithIDAndBodyFile() async throws {
        let fixture = try Fixture()
        let created = try await fixture.call(
            "POST", "/__admin/mappings",
            """
            {"id": "22222222-2222-4222-8222-222222222222", "name": "hello", "priority": 1,
             "request": {"method": "GET", "url": "/hello"}, "response": {"status": 200, "bodyFileName": "hello.json"}}
            """)
        #expect(created.status == 201)
        let mapping = try created.json()
        #expect(mapping["id"] as? String == "22222222-2222-4222-8222-222222222222")
        #expect(mapping["name"] as? String == "hello")
        #expect(mapping["priority"] as? Int == 1)
        #expect(try await HTTP.get(fixture.server, "/hello").text == #"{"from": "file"}"#)
    }

    @Test("A bad mapping answers 422 with WireMock's errors array, a JSON pointer and our message")
    func createMappingErrors() async throws {
        let fixture = try Fixture()
        let badField = try await fixture.call(
            "POST", "/__admin/mappings",
            #"{"request": {"url": "/x"}, "response": {"status": "200"}}"#)
        #expect(badField.status == 422)
        #expect(badField.header("Content-Type") == "application/json")
        let error = try #require((try badField.json()["errors"] as? [[String: Any]])?.first)
        #expect(error["code"] as? Int == 10)
        #expect((error["source"] as? [String: Any])?["pointer"] as? String == "/response/status")
        #expect((error["detail"] as? String)?.hasPrefix("response.status: expected an integer") == true)

        let typo = try await fixture.call(
            "POST", "/__admin/mappings",
            #"{"request": {"url": "/x"}, "response": {"stauts": 200}}"#)
        #expect(typo.status == 422)
        #expect(typo.text.contains("did you mean 'status'?"))

        let notJSON = try await fixture.call("POST", "/__admin/mappings", #"{"request": "#)
        #expect(notJSON.status == 422)
        let syntax = try #require((try notJSON.json()["errors"] as? [[String: Any]])?.first)
        #expect(syntax["title"] as? String == "Error parsing JSON")
        #expect((syntax["source"] as? [String: Any])?.isEmpty == true)

        #expect(fixture.server.mappings.count == 2)
    }

    @Test(
        "A mapping whose body file is outside __files is created and answers 500 without reading it, as WireMock does")
    func createMappingWithEscapingBodyFile() async throws {
        let escaping = #"{"request": {"url": "/x"}, "response": {"bodyFileName": "../mappings/a.json"}}"#
        let fixture = try Fixture()
        #expect(try await fixture.call("POST", "/__admin/mappings", escaping).status == 201)
        let hit = try await HTTP.get(fixture.server, "/x")
        #expect(hit.status == 500)
        #expect(hit.text.contains("'bodyFileName' '../mappings/a.json' escapes "))
        let strict = try Fixture(strictBodyFiles: true)
        let refused = try await strict.call("POST", "/__admin/mappings", escaping)
        #expect(refused.status == 422)
        #expect(refused.text.contains("/response/bodyFileName"))
    }

    @Test("A mapping whose body file is missing is created and answers 500 naming the file, as WireMock does")
    func createMappingWithMissingBodyFile() async throws {
        let missingFile = #"{"request": {"url": "/x"}, "response": {"bodyFileName": "nope.json"}}"#
        let fixture = try Fixture()
        // WireMock 2.35.1 answers 201, then 500 when the stub is hit.
        #expect(try await fixture.call("POST", "/__admin/mappings", missingFile).status == 201)
        let hit = try await HTTP.get(fixture.server, "/x")
        #expect(hit.status == 500)
        #expect(hit.text.contains("response.bodyFileName: 'bodyFileName' 'nope.json' not found in "))
        #expect(fixture.server.requests.last?.responseStatus == 500)

        let strict = try Fixture(strictBodyFiles: true)
        let refused = try await strict.call("POST", "/__admin/mappings", missingFile)
        #expect(refused.status == 422)
        #expect(refused.text.contains("/response/bodyFileName"))
        #expect(strict.server.mappings.count == 2)
    }

    @Test("A pointer escapes '/' and '~' in a member name, as RFC 6901 says")
    func pointerEscaping() async throws {
        let fixture = try Fixture()
        let response = try await fixture.call(
            "POST", "/__admin/mappings",
            """
            {"request": {"url": "/x", "headers": {"X a/b~c": {"equalTo": 3}}}, "response": {"status": 200}}
            """)
        #expect(response.status == 422)
        let error = try #require((try response.json()["errors"] as? [[String: Any]])?.first)
        #expect((error["source"] as? [String: Any])?["pointer"] as? String == "/request/headers/X a~1b~0c/equalTo")
    }

    @Test("GET, PUT and DELETE /__admin/mappings/{id}; unknown ids answer 404")
    func mappingByID() async throws {
        let fixture = try Fixture()
        let fetched = try await fixture.call("GET", "/__admin/mappings/\(Fixture.fileStubID)")
        #expect(fetched.status == 200)
        #expect((try fetched.json()["request"] as? [String: Any])?["urlPath"] as? String == "/file-b")

        let before = try await fixture.listedIDs()
        let replaced = try await fixture.call(
            "PUT", "/__admin/mappings/\(Fixture.fileStubID)",
            """
            {"id": "ignored-in-favour-of-the-path", "request": {"method": "GET", "url": "/file-b-2"},
             "response": {"status": 202}}
            """)
        #expect(replaced.status == 200)
        #expect(try replaced.json()["id"] as? String == Fixture.fileStubID)
        #expect(try await fixture.listedIDs() == before)  // replaced in place
        #expect(try await HTTP.get(fixture.server, "/file-b-2").status == 202)
        #expect(try await HTTP.get(fixture.server, "/file-b").status == 404)

        let deleted = try await fixture.call("DELETE", "/__admin/mappings/\(Fixture.fileStubID)")
        #expect(deleted.status == 200)
        #expect(try deleted.json().isEmpty)
        #expect(try await HTTP.get(fixture.server, "/file-b-2").status == 404)

        for method in ["GET", "DELETE"] {
            let missing = try await fixture.call(method, "/__admin/mappings/\(Fixture.fileStubID)")
            #expect(missing.status == 404)
            #expect(missing.header("Content-Type") == "application/json")
        }
        let putMissing = try await fixture.call(
            "PUT", "/__admin/mappings/nope",
            #"{"request": {"url": "/x"}, "response": {"status": 200}}"#)
        #expect(putMissing.status == 404)
        let putBad = try await fixture.call("PUT", "/__admin/mappings/\(before[0])", #"{"request": {"url": 1}}"#)
        #expect(putBad.status == 422)
    }

    @Test("DELETE /__admin/mappings removes every stub; POST /__admin/mappings/reset brings the files back")
    func deleteAllAndResetMappings() async throws {
        let fixture = try Fixture()
        fixture.server.stub(.get("/runtime"), .text("r"))
        _ = try await HTTP.get(fixture.server, "/file-a")
        let deleted = try await fixture.call("DELETE", "/__admin/mappings")
        #expect(deleted.status == 200)
        #expect(try await fixture.listedIDs().isEmpty)
        #expect(try await HTTP.get(fixture.server, "/file-a").status == 404)

        fixture.server.stub(.get("/runtime"), .text("r"))
        let reset = try await fixture.call("POST", "/__admin/mappings/reset")
        #expect(reset.status == 200)
        #expect(try await fixture.listedIDs().count == 2)
        #expect(try await HTTP.get(fixture.server, "/file-a").text == "A")
        #expect(try await HTTP.get(fixture.server, "/runtime").status == 404)
        #expect(fixture.server.requests.count == 4)  // the mappings reset keeps the journal
    }

    @Test(
        "A reset reads the stub files again, as WireMock: files copied in after start are served, removed ones are gone"
    )
    func resetReadsTheFilesAgain() async throws {
        let fixture = try Fixture()
        let mappings = fixture.root.appendingPathComponent("mappings")
        // What WireMock's Testcontainers module for Python does: copy files in, then POST /__admin/mappings/reset.
        try Data(#"{"request": {"url": "/late"}, "response": {"status": 200, "body": "late"}}"#.utf8)
            .write(to: mappings.appendingPathComponent("late.json"))
        try FileManager.default.removeItem(at: mappings.appendingPathComponent("a.json"))
        #expect(try await HTTP.get(fixture.server, "/late").status == 404)
        #expect(try await fixture.call("POST", "/__admin/mappings/reset").status == 200)
        #expect(try await HTTP.get(fixture.server, "/late").text == "late")
        #expect(try await HTTP.get(fixture.server, "/file-a").status == 404)
        #expect(try await fixture.listedIDs().count == 2)

        // And the full reset (stubs, scenarios, journal).
        try Data(#"{"request": {"url": "/later"}, "response": {"status": 200, "body": "later"}}"#.utf8)
            .write(to: mappings.appendingPathComponent("later.json"))
        #expect(try await fixture.call("POST", "/__admin/reset").status == 200)
        #expect(try await HTTP.get(fixture.server, "/later").text == "later")
        #expect(fixture.server.requests.count == 1)
    }

    @Test("A reset with a broken stub file answers 500 naming the file and field, and changes nothing")
    func resetWithABrokenFile() async throws {
        let fixture = try Fixture()
        let runtime = fixture.server.stub(.get("/runtime"), .text("r"))
        try Data(#"{"request": {"url": "/x"}, "response": {"status": "two hundred"}}"#.utf8)
            .write(to: fixture.root.appendingPathComponent("mappings/broken.json"))
        for path in ["/__admin/mappings/reset", "/__admin/reset"] {
            let reset = try await fixture.call("POST", path)
            #expect(reset.status == 500)
            let error = try #require((try reset.json()["errors"] as? [[String: Any]])?.first)
            #expect((error["title"] as? String)?.contains("nothing was reset") == true)
            #expect((error["detail"] as? String)?.contains("broken.json") == true)
            #expect((error["source"] as? [String: Any])?["pointer"] as? String == "/response/status")
        }
        #expect(Set(try await fixture.listedIDs()).contains(runtime.id))
        #expect(try await HTTP.get(fixture.server, "/file-a").text == "A")
        #expect(try await HTTP.get(fixture.server, "/runtime").text == "r")
    }

    @Test("GET /__admin and /__admin/ list the stubs, as WireMock's /__admin/ (the Go module waits on it)")
    func adminRoot() async throws {
        let fixture = try Fixture()
        for path in ["/__admin", "/__admin/"] {
            let root = try await fixture.call("GET", path)
            #expect(root.status == 200)
            #expect((try root.json()["meta"] as? [String: Any])?["total"] as? Int == 2)
        }
        #expect(try await fixture.call("POST", "/__admin").status == 405)
    }

    @Test("POST /__admin/mappings/import adds new ids and overwrites known ones in place")
    func importMappings() async throws {
        let fixture = try Fixture()
        let imported = try await fixture.call(
            "POST", "/__admin/mappings/import",
            """
            {"mappings": [
              {"id": "\(Fixture.fileStubID)", "request": {"url": "/file-b"}, "response": {"status": 203}},
              {"request": {"url": "/imported"}, "response": {"status": 200, "body": "imported"}}
            ]}
            """)
        #expect(imported.status == 200)
        #expect(fixture.server.mappings.count == 3)
        #expect(try await HTTP.get(fixture.server, "/file-b").status == 203)
        #expect(try await HTTP.get(fixture.server, "/imported").text == "imported")

        let ignored = try await fixture.call(
            "POST", "/__admin/mappings/import",
            """
            {"mappings": [{"id": "\(Fixture.fileStubID)", "request": {"url": "/file-b"}, "response": {"status": 500}}],
             "importOptions": {"duplicatePolicy": "IGNORE"}}
            """)
        #expect(ignored.status == 200)
        #expect(try await HTTP.get(fixture.server, "/file-b").status == 203)

        let bad = try await fixture.call(
            "POST", "/__admin/mappings/import",
            #"{"mappings": [{"request": {}, "response": {"status": -1}}]}"#)
        #expect(bad.status == 422)
        #expect(bad.text.contains("/mappings/0/response/status"))
    }

    // MARK: - Requests

    @Test(
        "GET /__admin/requests lists serve events in WireMock's shape, most recent first; admin calls are not journaled"
    )
    func listRequests() async throws {
        let fixture = try Fixture()
        _ = try await HTTP.get(fixture.server, "/file-a")
        _ = try await HTTP.send(
            fixture.server, "POST", "/nowhere?page=2&page=3",
            headers: ["X-Trace": "t1", "Cookie": "session=abc"], body: Data(#"{"k":"v"}"#.utf8))
        _ = try await fixture.call("GET", "/__admin/mappings")
        let response = try await fixture.call("GET", "/__admin/requests")
        #expect(response.status == 200)
        let json = try response.json()
        #expect(json["requestJournalDisabled"] as? Bool == false)
        #expect((json["meta"] as? [String: Any])?["total"] as? Int == 2)
        let events = try #require(json["requests"] as? [[String: Any]])
        try #require(events.count == 2)

        let unmatched = events[0]
        #expect(unmatched["wasMatched"] as? Bool == false)
        // WireMock's placeholder stub: its clients read every serve event's stub.
        let placeholder = try #require(unmatched["stubMapping"] as? [String: Any])
        #expect(placeholder["id"] as? String == "00000000-0000-0000-0000-000000000000")
        #expect(placeholder["request"] as? [String: String] == ["method": "ANY"])
        #expect((placeholder["response"] as? [String: Any])?["status"] as? Int == 404)
        #expect((unmatched["response"] as? [String: Any])?["status"] as? Int == 404)
        let request = try #require(unmatched["request"] as? [String: Any])
        #expect(request["url"] as? String == "/nowhere?page=2&page=3")
        #expect(request["absoluteUrl"] as? String == fixture.server.baseURL.absoluteString + "/nowhere?page=2&page=3")
        #expect(request["method"] as? String == "POST")
        #expect(request["clientIp"] as? String == "127.0.0.1")  // what WireMock 2.35.1 logs for a loopback client
        #expect(request["body"] as? String == #"{"k":"v"}"#)
        #expect(request["bodyAsBase64"] as? String == Data(#"{"k":"v"}"#.utf8).base64EncodedString())
        #expect((request["headers"] as? [String: Any])?["X-Trace"] as? String == "t1")
        #expect((request["cookies"] as? [String: Any])?["session"] as? String == "abc")
        #expect(request["loggedDate"] is Int)
        #expect((request["loggedDateString"] as? String)?.hasSuffix("Z") == true)
        #expect(request["port"] as? Int == fixture.server.port)
        let page = (request["queryParams"] as? [String: Any])?["page"] as? [String: Any]
        #expect(page?["values"] as? [String] == ["2", "3"])
        #expect((unmatched["id"] as? String).flatMap(UUID.init(uuidString:)) != nil)

        let matched = events[1]
        #expect(matched["wasMatched"] as? Bool == true)
        #expect((matched["stubMapping"] as? [String: Any])?["id"] as? String == fixture.server.mappings[0].id)
        #expect((matched["responseDefinition"] as? [String: Any])?["body"] as? String == "A")

        let id = try #require(matched["id"] as? String)
        let single = try await fixture.call("GET", "/__admin/requests/\(id)")
        #expect(single.status == 200)
        #expect(try single.json()["id"] as? String == id)
        #expect(try await fixture.call("GET", "/__admin/requests/not-an-id").status == 404)

        let limited = try await fixture.call("GET", "/__admin/requests?limit=1").json()
        #expect((limited["requests"] as? [Any])?.count == 1)
        #expect(fixture.server.requests.count == 2)
    }

    @Test("POST /__admin/requests/count and /find take a request pattern")
    func countAndFind() async throws {
        let fixture = try Fixture()
        for path in ["/file-a", "/file-a", "/file-b", "/orders/1"] { _ = try await HTTP.get(fixture.server, path) }
        _ = try await HTTP.send(
            fixture.server, "POST", "/orders", headers: ["Content-Type": "application/json"],
            body: Data(#"{"sku": "abc"}"#.utf8))

        let count = try await fixture.call("POST", "/__admin/requests/count", #"{"method": "GET", "url": "/file-a"}"#)
        #expect(count.status == 200)
        #expect(try count.json()["count"] as? Int == 2)
        #expect(try await fixture.call("POST", "/__admin/requests/count", "{}").json()["count"] as? Int == 5)
        let byBody = try await fixture.call(
            "POST", "/__admin/requests/count",
            """
            {"method": "POST", "urlPathPattern": "/orders.*", "bodyPatterns": [{"matchesJsonPath": "$.sku"}]}
            """)
        #expect(try byBody.json()["count"] as? Int == 1)

        let found = try await fixture.call(
            "POST", "/__admin/requests/find", #"{"urlPathPattern": "/(file-b|orders/1)"}"#)
        #expect(found.status == 200)
        let requests = try #require(try found.json()["requests"] as? [[String: Any]])
        #expect(requests.map { $0["url"] as? String } == ["/file-b", "/orders/1"])  // oldest first, as WireMock

        let bad = try await fixture.call("POST", "/__admin/requests/count", #"{"urlPath": 3}"#)
        #expect(bad.status == 422)
        let error = try #require((try bad.json()["errors"] as? [[String: Any]])?.first)
        #expect((error["source"] as? [String: Any])?["pointer"] as? String == "/urlPath")
        #expect(error["detail"] as? String == "urlPath: expected a string, found 3")
        #expect(try await fixture.call("POST", "/__admin/requests/find", "{").status == 422)
    }

    @Test("GET /__admin/requests/unmatched and its near misses")
    func unmatchedAndNearMisses() async throws {
        let fixture = try Fixture()
        _ = try await HTTP.get(fixture.server, "/file-a")
        _ = try await HTTP.get(fixture.server, "/file-ax")
        _ = try await HTTP.get(fixture.server, "/elsewhere")

        let unmatched = try await fixture.call("GET", "/__admin/requests/unmatched")
        #expect(unmatched.status == 200)
        let requests = try #require(try unmatched.json()["requests"] as? [[String: Any]])
        #expect(requests.map { $0["url"] as? String } == ["/elsewhere", "/file-ax"])  // most recent first, as WireMock

        let nearMisses = try await fixture.call("GET", "/__admin/requests/unmatched/near-misses")
        #expect(nearMisses.status == 200)
        let misses = try #require(try nearMisses.json()["nearMisses"] as? [[String: Any]])
        #expect(misses.count == 4)  // two unmatched requests × two stubs
        let forFileAX = misses.filter { ($0["request"] as? [String: Any])?["url"] as? String == "/file-ax" }
        let closest = try #require(forFileAX.first)
        #expect(
            (closest["stubMapping"] as? [String: Any])?["request"] as? [String: String] == [
                "url": "/file-a", "method": "GET"
            ])
        // WireMock's Java client reads a `matchResult` with `distance` alone: what differed comes on request.
        let result = try #require(closest["matchResult"] as? [String: Any])
        #expect(Set(result.keys) == ["distance"])
        #expect((result["distance"] as? Double).map { $0 > 0 && $0 < 1 } == true)
        let detailed = try await fixture.call("GET", "/__admin/requests/unmatched/near-misses?stubserver=true")
        let detailedMisses = try #require(try detailed.json()["nearMisses"] as? [[String: Any]])
        let detailedResult = try #require(
            detailedMisses.first { ($0["request"] as? [String: Any])?["url"] as? String == "/file-ax" }?["matchResult"]
                as? [String: Any])
        #expect(detailedResult["distance"] as? Double == result["distance"] as? Double)
        let mismatch = try #require((detailedResult["mismatches"] as? [[String: Any]])?.first)
        #expect(mismatch["part"] as? String == "url")
        #expect(mismatch["actual"] as? [String] == ["/file-ax"])

        let byPattern = try await fixture.call("POST", "/__admin/near-misses/request-pattern", #"{"url": "/file-b"}"#)
        let patternMisses = try #require(try byPattern.json()["nearMisses"] as? [[String: Any]])
        #expect(patternMisses.count == 3)
        #expect((patternMisses.first?["requestPattern"] as? [String: Any])?["url"] as? String == "/file-b")
    }

    // MARK: - Resets, health, routing

    @Test("DELETE /__admin/requests clears the journal; POST /__admin/reset also restores the file stubs")
    func resets() async throws {
        let fixture = try Fixture()
        _ = try await HTTP.get(fixture.server, "/file-a")
        #expect(try await fixture.call("DELETE", "/__admin/requests").status == 200)
        #expect(fixture.server.requests.isEmpty)

        _ = try await HTTP.get(fixture.server, "/file-a")
        _ = try await fixture.call("DELETE", "/__admin/mappings/\(Fixture.fileStubID)")
        let added = try await fixture.call(
            "POST", "/__admin/mappings",
            #"{"request": {"url": "/runtime"}, "response": {"status": 200}}"#)
        #expect(added.status == 201)
        let reset = try await fixture.call("POST", "/__admin/reset")
        #expect(reset.status == 200)
        #expect(reset.header("Content-Type") == "application/json")
        #expect(fixture.server.requests.isEmpty)
        #expect(Set(try await fixture.listedIDs()) == Set(fixture.server.mappings.map(\.id)))
        #expect(fixture.server.mappings.count == 2)
        #expect(try await HTTP.get(fixture.server, "/file-b").text == "B")
        #expect(try await HTTP.get(fixture.server, "/runtime").status == 404)
    }

    @Test("GET /__admin/health answers healthy")
    func health() async throws {
        let fixture = try Fixture()
        let response = try await fixture.call("GET", "/__admin/health")
        #expect(response.status == 200)
        #expect(try response.json()["status"] as? String == "healthy")
        #expect(fixture.server.requests.isEmpty)
    }

    @Test("Unknown admin paths answer 404 JSON, a known path with another method 405 with Allow")
    func routing() async throws {
        let fixture = try Fixture()
        let unknown = try await fixture.call("GET", "/__admin/nothing-here")
        #expect(unknown.status == 404)
        #expect(unknown.header("Content-Type") == "application/json")
        #expect(unknown.text.contains("no admin endpoint at /__admin/nothing-here"))

        let wrongMethod = try await fixture.call("GET", "/__admin/reset")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("Allow") == "POST")
        #expect(try await fixture.call("PATCH", "/__admin/mappings").header("Allow") == "GET, HEAD, POST, DELETE")

        // Only `/__admin` and below are admin paths; a stub may serve `/__administrator`.
        fixture.server.stub(.get("/__administrator"), .text("not admin"))
        #expect(try await HTTP.get(fixture.server, "/__administrator").text == "not admin")
        #expect(fixture.server.requests.count == 1)
    }
}
