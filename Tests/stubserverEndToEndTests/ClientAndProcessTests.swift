// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    import StubTesting
    import Testing
    import XCTest

    /// A launched `stubserver` binary (StubKit's `StubServerProcess`), driven through `StubServerClient`,
    /// with the XCTest and Swift Testing assertion helpers.
    final class ClientAndProcessXCTests: XCTestCase {
        func testTheXCTestHelpersPassAgainstALaunchedServerThroughTheClient() async throws {
            let server = try StubClient.StubServerProcess.launch(
                executable: Paths.stubserverBinary(), stubs: Paths.demoStubs)
            // The first line is in standardOutput as soon as launch returns.
            XCTAssertEqual(server.standardOutput, "Listening on \(server.baseURL.absoluteString)\n")
            let stub = try await server.stub(
                .get("/from-client"), .text("hi").withHeader("X-From", "client"), priority: 1, name: "client stub")
            let answer = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("from-client"))
            XCTAssertEqual(answer.text, "hi")
            XCTAssertEqual(answer.header("Matched-Stub-Id"), stub.id)

            await XCTAssertRequested(server, .get("/from-client"), count: 1)
            await XCTAssertRequested(server.client, .get("/from-client"))
            await XCTAssertRequested(server, .get("/never"), count: 0)
            await XCTAssertNoUnmatchedRequests(server)
            let received = try await server.received(.get("/from-client"))
            XCTAssertEqual(received, 1)
            let logged = try await server.requests
            XCTAssertEqual(logged.last?.matchedStub?.name, "client stub")
            XCTAssertEqual(logged.last?.response?.headers.first(name: "X-From"), "client")
            let unused = try await server.unusedStubs
            XCTAssertFalse(unused.contains { $0.id == stub.id })

            let removed = try await server.removeStub(id: stub.id)
            XCTAssertTrue(removed)
            let removedAgain = try await server.removeStub(id: stub.id)
            XCTAssertFalse(removedAgain)
            try await server.reset()
            let afterReset = try await server.requests
            XCTAssertTrue(afterReset.isEmpty)
            XCTAssertEqual(server.stop(), .exited(0), server.standardError)
        }
    }

    @Suite("StubServerClient and StubServerProcess against the binary")
    struct ClientAndProcessTests {
        @Test("expectRequested, expectNoUnmatchedRequests and near misses work through the client")
        func swiftTestingHelpers() async throws {
            let server = try StubClient.StubServerProcess.launch(
                executable: Paths.stubserverBinary(), stubs: Paths.demoStubs)
            defer { server.stop() }
            let client = StubServerClient(baseURL: server.baseURL)
            _ = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("users/octocat"))
            await expectRequested(client, .get("/users/octocat"), count: 1)
            await expectNoUnmatchedRequests(server)
            let misses = try await client.nearMisses(for: .get("/users/octokat"))
            #expect(misses.first?.request.request.target == "/users/octocat")
            #expect(misses.first?.result.mismatches.first?.part == .url)

            // A failing check records an issue with the same message as in-process.
            await withKnownIssue {
                await expectRequested(client, .get("/users/octokat"), count: 1)
            } matching: { issue in
                issue.comments.contains {
                    $0.rawValue.contains("Closest requests:") && $0.rawValue.contains("/users/octocat")
                }
            }
            _ = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("nothing-here"))
            await withKnownIssue {
                await expectNoUnmatchedRequests(client)
            }
        }

        @Test("Bad input through the client is a typed error with the server's message; settings round-trip")
        func errorsAndSettings() async throws {
            let server = try StubClient.StubServerProcess.launch(
                executable: Paths.stubserverBinary(), stubs: Paths.demoStubs)
            defer { server.stop() }
            let error = await #expect(throws: StubServerClientError.self) {
                try await server.stub(mappingJSON: #"{"request": {"url": "/x"}, "response": {"status": "200"}}"#)
            }
            #expect(error?.status == 422)
            #expect(error?.detail.contains("response.status") == true)
            try await server.updateSettings(StubServerSettings(fixedDelayMilliseconds: 5))
            #expect(try await server.settings.fixedDelayMilliseconds == 5)
            #expect(try await server.client.version() == StubServer.version)
            try await server.resetScenarios()
            #expect(try await server.scenarioState("nope") == "Started")
            let mappings = try await server.mappings
            #expect(mappings.count == (try StubServer(stubs: Paths.demoStubs)).mappings.count)
            // POST /__admin/shutdown ends the process with exit 0.
            try await server.client.shutdown()
            #expect(server.waitForExit(timeout: .seconds(20)) == .exited(0))
        }

        @Test("launch fails with the server's stderr when the stubs are bad")
        func launchFailure() throws {
            let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-stubs-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: bad.appendingPathComponent("mappings"), withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: bad) }
            try Data("{".utf8).write(to: bad.appendingPathComponent("mappings/x.json"))
            let error = #expect(throws: StubServerProcessError.self) {
                try StubClient.StubServerProcess.launch(executable: Paths.stubserverBinary(), stubs: bad)
            }
            #expect(error?.description.contains("x.json") == true)
        }
    }
#endif
