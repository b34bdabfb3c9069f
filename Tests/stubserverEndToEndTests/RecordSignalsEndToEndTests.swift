// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport
    import XCTest

    /// `stubserver record` ends the way it documents whatever stops it: SIGINT, SIGTERM, SIGHUP and SIGQUIT
    /// each write what was recorded and exit 0; a closed stdout does not kill it (no SIGPIPE); a target
    /// that is the recorder itself is refused, and a loop answer is never recorded.
    final class RecordSignalsEndToEndTests: XCTestCase {
        static let paths = ["users/octocat", "avatars/u/583231", "users/nobody-at-all"]

        private func launch(_ arguments: [String], in directory: URL = Paths.repositoryRoot) throws -> StubServerProcess
        {
            let server = try StubServerProcess.launch(arguments, currentDirectory: directory)
            addTeardownBlock { server.stop() }
            return server
        }

        private func mappingFiles(in folder: URL) -> [String] {
            let names =
                (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("mappings").path))
                ?? []
            return names.filter { $0.hasSuffix(".json") }.sorted()
        }

        func testEveryStopSignalWritesTheRecordedStubsAndExitsZero() async throws {
            let upstream = try launch(["--stubs", Paths.demoStubs.path]).baseURL
            let temp = try TemporaryStubs()
            // SIGHUP is 1 and SIGQUIT 3 on every POSIX system (spelled out for the Darwin type-check's stand-in SDK).
            for (stop, name) in [(SIGINT, "int"), (SIGTERM, "term"), (Int32(1), "hup"), (Int32(3), "quit")] {
                let recorder = try launch(
                    ["record", "--target", upstream.absoluteString, "--stubs", name], in: temp.root)
                for path in Self.paths {
                    _ = try await LoopbackClient.send("GET", recorder.baseURL.appendingPathComponent(path))
                }
                recorder.signal(stop)
                XCTAssertEqual(
                    recorder.waitForExit(timeout: .seconds(30)), .exited(0), "\(name): \(recorder.standardError)")
                XCTAssertTrue(
                    recorder.standardOutput.contains("wrote 3 stubs to \(name) (3 mappings"),
                    "\(name): \(recorder.standardOutput)")
                let written = mappingFiles(in: temp.root.appendingPathComponent(name))
                XCTAssertEqual(written.count, 3, "\(name): \(written)")
                // Written atomically: no temporary file is left beside them.
                let all = try FileManager.default.contentsOfDirectory(
                    atPath: temp.root.appendingPathComponent(name + "/mappings").path)
                XCTAssertEqual(all.sorted(), written, name)
            }
        }

        /// The harness reads the first line, then closes its end of stdout (as `head -1` does): the summary's
        /// write fails with EPIPE, and the stubs are still written and the exit code is still 0.
        func testAClosedStandardOutputDoesNotKillTheRecorder() throws {
            let upstream = try launch(["--stubs", Paths.demoStubs.path]).baseURL
            let temp = try TemporaryStubs()
            let script = """
                import http.client, signal, subprocess, sys
                binary, target, cwd = sys.argv[1], sys.argv[2], sys.argv[3]
                p = subprocess.Popen([binary, "record", "--target", target, "--stubs", "rec", "--port", "0"], cwd=cwd,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                port = int(p.stdout.readline().decode().strip().rsplit(":", 1)[1])
                p.stdout.close()
                for path in sys.argv[4:]:
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    c.request("GET", "/" + path)
                    c.getresponse().read()
                    c.close()
                p.send_signal(signal.SIGTERM)
                print(p.wait(timeout=30))
                """
            let status = try ChildProcess.python(
                script,
                [try Paths.stubserverBinary().path, upstream.absoluteString, temp.root.path]
                    + Self.paths, timeout: .seconds(90))
            XCTAssertEqual(status, "0", "exit status (negative: killed by that signal)")
            XCTAssertEqual(mappingFiles(in: temp.root.appendingPathComponent("rec")).count, 3)
        }

        func testRecordRefusesATargetThatIsTheRecorderItself() throws {
            let temp = try TemporaryStubs()
            var outcome: (termination: StubServerProcess.Termination, stdout: String, stderr: String)?
            for _ in 0..<3 where outcome?.stderr.contains("is this recorder itself") != true {
                let port = try LoopbackListener(listen: false).port
                outcome = try StubServerProcess.run(
                    [
                        "record", "--target", "http://localhost:\(port)", "--port", "\(port)",
                        "--stubs", "never"
                    ], currentDirectory: temp.root)
            }
            let result = try XCTUnwrap(outcome)
            XCTAssertEqual(result.termination, .exited(2), result.stderr)
            XCTAssertTrue(result.stderr.contains("is this recorder itself"), result.stderr)
            XCTAssertTrue(result.stderr.contains("Point --target at the real API"), result.stderr)
        }

        func testARecordingOfItselfThroughTheAdminAPIRecordsNoLoopAnswer() async throws {
            let temp = try TemporaryStubs()
            let server = try launch(["--stubs", "stubs"], in: temp.root).baseURL
            let recordings = server.appendingPathComponent("__admin/recordings")
            let started = try await LoopbackClient.send(
                "POST", recordings.appendingPathComponent("start"),
                body: Data(#"{"targetBaseUrl": "\#(server.absoluteString)"}"#.utf8))
            XCTAssertEqual(started.status, 200, started.text)
            let looped = try await LoopbackClient.send("GET", server.appendingPathComponent("users/octocat"))
            XCTAssertEqual(looped.status, 508, looped.text)
            XCTAssertTrue(looped.text.contains("by the recording"), looped.text)
            let stopped = try await LoopbackClient.send("POST", recordings.appendingPathComponent("stop"))
            XCTAssertEqual(stopped.status, 200, stopped.text)
            let object = try JSONSerialization.jsonObject(with: stopped.body) as? [String: Any]
            XCTAssertEqual((object?["mappings"] as? [Any])?.count, 0, stopped.text)
            XCTAssertEqual(mappingFiles(in: temp.stubs), [])
        }
    }
#endif
