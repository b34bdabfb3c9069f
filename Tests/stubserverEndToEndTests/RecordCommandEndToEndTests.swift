// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    import XCTest

    /// `stubserver record` as a user runs it, in front of a second `stubserver` serving the demo stubs
    /// (never the internet): stopped by a signal, it writes the stubs, and `stubserver` restarted on the
    /// folder answers the same, byte for byte, with no secret in any file.
    final class RecordCommandEndToEndTests: XCTestCase {
        static let token = "ghp_RECORDTOKEN0123456789abcdef"
        static let cookieValue = "RECORDCOOKIE77"

        private func launch(_ arguments: [String], in directory: URL = Paths.repositoryRoot) throws -> StubServerProcess
        {
            let server = try StubServerProcess.launch(arguments, currentDirectory: directory)
            addTeardownBlock { server.stop() }
            return server
        }

        func testRecordStopRestartAnswersTheSameBytesWithoutSecrets() async throws {
            let upstream = try launch(["--stubs", Paths.demoStubs.path]).baseURL
            let temp = try TemporaryStubs()
            // The user's own body file under the name the recording would take: it must stay as it is.
            let recorded = temp.root.appendingPathComponent("recorded")
            try FileManager.default.createDirectory(
                at: recorded.appendingPathComponent("__files"), withIntermediateDirectories: true)
            let mine = recorded.appendingPathComponent("__files/get-users-octocat.json")
            try Data("mine".utf8).write(to: mine)

            let recorder = try launch(
                ["record", "--target", upstream.absoluteString, "--stubs", "recorded", "--json-as-received"],
                in: temp.root)
            XCTAssertTrue(
                eventuallyBlocking(timeout: .seconds(60)) {
                    recorder.standardOutput.contains("Recording \(upstream.absoluteString) into recorded")
                },
                recorder.standardOutput)
            let base = recorder.baseURL
            let secrets = ["Authorization": "token \(Self.token)", "Cookie": "session=\(Self.cookieValue)"]
            let paths = [
                "users/octocat?access_token=\(Self.token)", "users/octocat?access_token=\(Self.token)",
                "avatars/u/583231", "users/nobody-at-all"
            ]
            var live: [String: Fetched] = [:]
            for path in paths {
                live[path] = try await LoopbackClient.send(
                    "GET", try XCTUnwrap(URL(string: base.absoluteString + "/" + path)), headers: secrets)
            }
            XCTAssertEqual(live[paths[0]]?.status, 200)
            XCTAssertEqual(live["users/nobody-at-all"]?.status, 404)

            recorder.signal(SIGTERM)
            XCTAssertEqual(recorder.waitForExit(timeout: .seconds(30)), .exited(0), recorder.standardError)
            let report = recorder.standardOutput
            XCTAssertTrue(
                report.contains("wrote 3 stubs to recorded (3 mappings, 3 body files); merged 1 duplicate request"),
                report)
            XCTAssertTrue(
                report.contains("  mappings/get-users-octocat-2.json  GET /users/octocat  (+1 duplicate)"), report)
            for line in [
                "left out as secrets:", "  query parameter access_token (2 requests)",
                "  request header Authorization (4 requests)", "  request header Cookie (4 requests)"
            ] {
                XCTAssertTrue(report.contains(line + "\n"), "missing '\(line)' in\n\(report)")
            }
            XCTAssertEqual(try String(contentsOf: mine, encoding: .utf8), "mine")
            try assertNoSecret(in: recorded)

            let replayed = try launch(["--stubs", "recorded"], in: temp.root).baseURL
            for path in paths {
                // Another token, or none: the stub matches the path and the other parameters.
                let replayPath = path.replacingOccurrences(of: Self.token, with: "other")
                let answer = try await LoopbackClient.send(
                    "GET", try XCTUnwrap(URL(string: replayed.absoluteString + "/" + replayPath)))
                let original = try XCTUnwrap(live[path])
                XCTAssertEqual(answer.status, original.status, path)
                XCTAssertEqual(answer.body, original.body, "\(path): not byte for byte what the upstream answered")
                XCTAssertEqual(answer.header("Content-Type"), original.header("Content-Type"), path)
            }
            let direct = try await LoopbackClient.send("GET", upstream.appendingPathComponent("avatars/u/583231"))
            XCTAssertEqual(direct.body, live["avatars/u/583231"]?.body)
        }

        func testRecordSequencesAfterSIGINTReplaysEachAnswerInTurn() async throws {
            let upstream = try launch(["--stubs", Paths.demoStubs.path]).baseURL
            let temp = try TemporaryStubs()
            let recorder = try launch(
                ["record", "--target", upstream.absoluteString, "--stubs", "seq", "--record-sequences"],
                in: temp.root)
            let hello = recorder.baseURL.appendingPathComponent("hello")
            let first = try await LoopbackClient.send("GET", hello)
            let changed =
                #"{"priority": 1, "request": {"method": "GET", "url": "/hello"}, "response": {"status": 200, "body": "changed"}}"#
            let added = try await LoopbackClient.send(
                "POST", upstream.appendingPathComponent("__admin/mappings"), body: Data(changed.utf8))
            XCTAssertEqual(added.status, 201, added.text)
            let second = try await LoopbackClient.send("GET", hello)
            XCTAssertEqual(second.text, "changed")

            recorder.signal(SIGINT)
            XCTAssertEqual(recorder.waitForExit(timeout: .seconds(30)), .exited(0), recorder.standardError)
            XCTAssertTrue(
                recorder.standardOutput.contains(#"(scenario "GET /hello", state 2)"#), recorder.standardOutput)

            let replayed = try launch(["--stubs", "seq"], in: temp.root).baseURL.appendingPathComponent("hello")
            let answers = [
                try await LoopbackClient.send("GET", replayed), try await LoopbackClient.send("GET", replayed),
                try await LoopbackClient.send("GET", replayed)
            ]
            XCTAssertEqual(answers.map(\.body), [first.body, second.body, second.body])
        }

        func testRecordRefusesAMissingOrBadTarget() throws {
            let missing = try StubServerProcess.run(["record", "--stubs", "x"])
            XCTAssertEqual(missing.termination, .exited(2))
            XCTAssertTrue(missing.stderr.contains("record needs --target URL"), missing.stderr)
            let bad = try StubServerProcess.run(["record", "--target", "ftp://example.com"])
            XCTAssertEqual(bad.termination, .exited(2))
            XCTAssertTrue(bad.stderr.contains("--target expects an http:// or https:// URL"), bad.stderr)
        }

        private func assertNoSecret(in folder: URL, file: StaticString = #filePath, line: UInt = #line) throws {
            let files =
                FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
                ?? []
            XCTAssertGreaterThan(files.count, 3, file: file, line: line)
            for url in files where !url.hasDirectoryPath {
                let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
                for secret in [Self.token, Self.cookieValue, "access_token", "Authorization"] {
                    XCTAssertFalse(
                        text.contains(secret), "\(url.lastPathComponent) holds \(secret)", file: file, line: line)
                }
            }
        }
    }
#endif
