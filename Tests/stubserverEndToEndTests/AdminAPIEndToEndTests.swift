// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    import XCTest

    /// The `stubserver` binary serves the WireMock-style admin API, driven as a CI script would drive it.
    final class AdminAPIEndToEndTests: XCTestCase {
        private func json(_ response: Fetched) throws -> [String: Any] {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], response.text)
        }

        func testPostShutdownStopsTheProcessWithExitZero() async throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/hello.json", simpleMapping("/hello", body: "hi"))
            let server = try StubServerProcess.launch(["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            let baseURL = server.baseURL
            let answer = try await LoopbackClient.send("POST", baseURL.appendingPathComponent("__admin/shutdown"))
            XCTAssertEqual(answer.status, 200, answer.text)
            XCTAssertEqual(server.waitForExit(timeout: .seconds(20)), .exited(0), server.standardError)
        }

        func testAStubPostedOverTheAdminAPIIsServedAndJournaled() async throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/hello.json", simpleMapping("/hello", body: "from file"))
            let server = try StubServerProcess.launch(["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            let baseURL = server.baseURL
            let admin = baseURL.appendingPathComponent("__admin")

            // Add a stub, as `curl -X POST --data @mapping.json http://…/__admin/mappings` would.
            let mapping =
                #"{"request": {"method": "GET", "urlPath": "/added"}, "response": {"status": 201, "body": "added"}}"#
            let created =
                Curl.isAvailable
                ? try Curl.send(
                    ["-X", "POST", "-H", "Content-Type: application/json", "--data", mapping],
                    admin.appendingPathComponent("mappings"))
                : try await LoopbackClient.send(
                    "POST", admin.appendingPathComponent("mappings"), body: Data(mapping.utf8))
            XCTAssertEqual(created.status, 201, created.text)
            XCTAssertEqual(created.header("Content-Type"), "application/json")
            let id = try XCTUnwrap(try json(created)["id"] as? String)

            let served = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("added"))
            XCTAssertEqual(served.status, 201)
            XCTAssertEqual(served.text, "added")
            XCTAssertEqual(served.header("Matched-Stub-Id"), id)

            let listed = try json(try await LoopbackClient.send("GET", admin.appendingPathComponent("mappings")))
            XCTAssertEqual((listed["meta"] as? [String: Any])?["total"] as? Int, 2)

            let count = try await LoopbackClient.send(
                "POST", admin.appendingPathComponent("requests/count"),
                body: Data(#"{"urlPath": "/added"}"#.utf8))
            XCTAssertEqual(try json(count)["count"] as? Int, 1)

            // Admin calls are not journaled: only the one stub request is.
            let requests = try json(try await LoopbackClient.send("GET", admin.appendingPathComponent("requests")))
            XCTAssertEqual((requests["meta"] as? [String: Any])?["total"] as? Int, 1)

            let bad = try await LoopbackClient.send(
                "POST", admin.appendingPathComponent("mappings"),
                body: Data(#"{"request": {}, "response": {"status": "ok"}}"#.utf8))
            XCTAssertEqual(bad.status, 422)
            XCTAssertTrue(bad.text.contains("\"pointer\": \"/response/status\""), bad.text)

            // A reset goes back to the file stubs and clears the journal.
            let reset = try await LoopbackClient.send("POST", admin.appendingPathComponent("reset"))
            XCTAssertEqual(reset.status, 200)
            let afterReset = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("added"))
            XCTAssertEqual(afterReset.status, 404)
            let fromFile = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("hello"))
            XCTAssertEqual(fromFile.text, "from file")

            let health = try await LoopbackClient.send("GET", admin.appendingPathComponent("health"))
            XCTAssertEqual(try json(health)["status"] as? String, "healthy")

            XCTAssertEqual(server.stop(), .exited(0))
        }
    }
#endif
