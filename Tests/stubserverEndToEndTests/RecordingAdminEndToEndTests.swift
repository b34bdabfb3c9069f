// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    import XCTest

    /// `/__admin/recordings/*` on the `stubserver` binary, recording from a second `stubserver` serving the
    /// demo stubs (never the internet): start, status, stop, snapshot; then a fresh server on the
    /// recorded folder answers the same.
    final class RecordingAdminEndToEndTests: XCTestCase {
        static let token = "ghp_RECORDINGSECRET0123456789"
        static let cookie = "session=COOKIESECRET42"

        private func launch(_ arguments: [String], in directory: URL = Paths.repositoryRoot) throws -> URL {
            try launchProcess(arguments, in: directory).baseURL
        }

        private func launchProcess(_ arguments: [String], in directory: URL = Paths.repositoryRoot) throws
            -> StubServerProcess
        {
            let server = try StubServerProcess.launch(arguments, currentDirectory: directory)
            addTeardownBlock { server.stop() }
            return server
        }

        private func object(_ response: Fetched) throws -> [String: Any] {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], response.text)
        }

        private func post(_ url: URL, _ json: String = "{}") async throws -> Fetched {
            try await LoopbackClient.send(
                "POST", url, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
        }

        func testStartStatusStopRecordsStubsThatAFreshServerServesTheSame() async throws {
            let upstream = try launch(["--stubs", Paths.demoStubs.path])
            let temp = try TemporaryStubs()
            // The user's own file under the name the recording would take: it must stay as it is.
            let mine = #"{"request": {"method": "GET", "url": "/mine"}, "response": {"status": 200, "body": "mine"}}"#
            try temp.write("mappings/get-users-octocat.json", mine)
            let process = try launchProcess(["--stubs", "stubs"], in: temp.root)
            let server = process.baseURL
            let recordings = server.appendingPathComponent("__admin/recordings")

            let never = try await LoopbackClient.send("GET", recordings.appendingPathComponent("status"))
            XCTAssertEqual(try object(never)["status"] as? String, "NeverStarted")
            let notRecording = try await post(recordings.appendingPathComponent("stop"))
            XCTAssertEqual(notRecording.status, 400, notRecording.text)

            let spec = #"{"targetBaseUrl": "\#(upstream.absoluteString)"}"#
            let started = try await post(recordings.appendingPathComponent("start"), spec)
            XCTAssertEqual(started.status, 200, started.text)
            let again = try await post(
                recordings.appendingPathComponent("start"), #"{"targetBaseUrl": "http://127.0.0.1:9"}"#)
            XCTAssertEqual(again.status, 409, again.text)
            XCTAssertTrue(again.text.contains(upstream.absoluteString), again.text)
            let recording = try await LoopbackClient.send("GET", recordings.appendingPathComponent("status"))
            XCTAssertEqual(try object(recording)["status"] as? String, "Recording")

            let secrets = ["Authorization": "token \(Self.token)", "Cookie": Self.cookie]
            let user = try await LoopbackClient.send(
                "GET", server.appendingPathComponent("users/octocat"), headers: secrets)
            XCTAssertEqual(user.status, 200)
            _ = try await LoopbackClient.send("GET", server.appendingPathComponent("users/octocat"), headers: secrets)
            let avatar = try await LoopbackClient.send("GET", server.appendingPathComponent("avatars/u/583231"))
            XCTAssertEqual(avatar.header("Content-Type"), "image/png")

            let stopped = try await post(recordings.appendingPathComponent("stop"))
            XCTAssertEqual(stopped.status, 200, stopped.text)
            let mappings = try XCTUnwrap(try object(stopped)["mappings"] as? [[String: Any]], stopped.text)
            XCTAssertEqual(mappings.count, 2, stopped.text)  // the repeated request once
            XCTAssertTrue(mappings.allSatisfy { $0["persistent"] as? Bool == true }, stopped.text)
            let status = try await LoopbackClient.send("GET", recordings.appendingPathComponent("status"))
            XCTAssertEqual(try object(status)["status"] as? String, "Stopped")

            XCTAssertEqual(
                try String(
                    contentsOf: temp.stubs.appendingPathComponent("mappings/get-users-octocat.json"), encoding: .utf8),
                mine)
            try assertNoSecret(in: temp.stubs)
            // The server's log lists what was left out.
            XCTAssertTrue(
                process.waitForStandardError(
                    containing: "request header Authorization (2 requests)", timeout: .seconds(60)),
                process.standardError)
            XCTAssertTrue(process.standardError.contains("request header Cookie (2 requests)"), process.standardError)

            // The recorded stubs answer at once, and a fresh server on the folder answers byte for byte the same.
            let expectedAvatar = try Data(
                contentsOf: Paths.demoStubs.appendingPathComponent("__files/avatars/583231.png"))
            let replayed = try launch(["--stubs", "stubs"], in: temp.root)
            for base in [server, replayed] {
                let avatar = try await LoopbackClient.send("GET", base.appendingPathComponent("avatars/u/583231"))
                XCTAssertEqual(avatar.body, expectedAvatar)
                let user = try await LoopbackClient.send("GET", base.appendingPathComponent("users/octocat"))
                XCTAssertEqual(user.status, 200)
                XCTAssertEqual(
                    try JSONParser.parse(Array(user.body)),
                    try JSONParser.parse(
                        Array(
                            try Data(contentsOf: Paths.demoStubs.appendingPathComponent("__files/users/octocat.json"))))
                )
                XCTAssertEqual(
                    user.body,
                    try Data(contentsOf: temp.stubs.appendingPathComponent("__files/get-users-octocat-2.json")))
                let mineAnswer = try await LoopbackClient.send("GET", base.appendingPathComponent("mine"))
                XCTAssertEqual(mineAnswer.text, "mine", "the user's own stub is still there")
            }
        }

        func testSnapshotMakesStubsFromTheJournalsForwardedRequestsOnly() async throws {
            let upstream = try launch(["--stubs", Paths.demoStubs.path])
            let temp = try TemporaryStubs()
            try temp.write("mappings/hello.json", simpleMapping("/local", body: "local"))
            let server = try launch(["--stubs", "stubs", "--proxy-all", upstream.absoluteString], in: temp.root)
            for path in ["users/octocat", "users/octocat", "hello", "local", "avatars/u/583231"] {
                _ = try await LoopbackClient.send("GET", server.appendingPathComponent(path))
            }
            let snapshot = try await post(
                server.appendingPathComponent("__admin/recordings/snapshot"),
                #"{"persist": false, "filters": {"urlPathPattern": "/(users|hello)/?.*", "method": "GET"}}"#)
            XCTAssertEqual(snapshot.status, 200, snapshot.text)
            let mappings = try XCTUnwrap(try object(snapshot)["mappings"] as? [[String: Any]], snapshot.text)
            let urls = mappings.compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
            XCTAssertEqual(urls, ["/users/octocat", "/hello"], snapshot.text)
            XCTAssertNil(mappings.first?["persistent"], snapshot.text)
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: temp.stubs.appendingPathComponent("mappings").path),
                ["hello.json"])

            let ids = try await post(
                server.appendingPathComponent("__admin/recordings/snapshot"),
                #"{"persist": false, "outputFormat": "IDS"}"#)
            XCTAssertEqual((try object(ids)["ids"] as? [String])?.count, 3, ids.text)
            let bad = try await post(
                server.appendingPathComponent("__admin/recordings/snapshot"), #"{"filters": {"method": 3}}"#)
            XCTAssertEqual(bad.status, 422, bad.text)
            XCTAssertTrue(bad.text.contains("/filters/method"), bad.text)
        }

        func testStubServerClientDrivesARecordingInMemory() async throws {
            let upstream = try launch(["--stubs", Paths.demoStubs.path])
            let temp = try TemporaryStubs()
            let server = try launchProcess(["--stubs", "stubs"], in: temp.root)
            let client = server.client
            let before = try await client.recordingStatus
            XCTAssertEqual(before, .neverStarted)
            var spec = RecordingSpec(target: upstream, filter: RequestPattern(url: .urlPathPattern("/users/.*")))
            spec.writer.captureHeaders = ["Accept"]
            spec.persist = false  // served from memory, no file written
            try await client.startRecording(spec)
            do {
                try await client.startRecording(spec)
                XCTFail("a second start must fail")
            } catch let error as StubServerClientError {
                XCTAssertEqual(error.status, 409, "\(error)")
            }
            let during = try await client.recordingStatus
            XCTAssertEqual(during, .recording)
            _ = try await LoopbackClient.send(
                "GET", server.baseURL.appendingPathComponent("users/octocat"), headers: ["Accept": "application/json"])
            _ = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("hello"))
            let recorded = try await client.stopRecording()
            XCTAssertEqual(recorded.map(\.request.url), [.url("/users/octocat")])
            XCTAssertEqual(recorded.first?.request.headers.map(\.name), ["Accept"])
            let after = try await client.recordingStatus
            XCTAssertEqual(after, .stopped)
            let replayed = try await LoopbackClient.send(
                "GET", server.baseURL.appendingPathComponent("users/octocat"),
                headers: ["Accept": "application/json"])
            XCTAssertEqual(replayed.status, 200)
            XCTAssertEqual(replayed.header("X-RateLimit-Limit"), "60")
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: temp.stubs.appendingPathComponent("mappings").path),
                [])
        }

        private func assertNoSecret(in folder: URL, file: StaticString = #filePath, line: UInt = #line) throws {
            let files =
                FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
                ?? []
            XCTAssertFalse(files.isEmpty, file: file, line: line)
            for url in files where !url.hasDirectoryPath {
                let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
                for secret in [Self.token, "COOKIESECRET42", "Authorization", "Cookie"] {
                    XCTAssertFalse(
                        text.contains(secret), "\(url.lastPathComponent) holds \(secret)", file: file, line: line)
                }
            }
        }
    }
#endif
