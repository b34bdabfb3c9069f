// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import XCTest

    /// No silent empty server. A stubs folder that cannot be read is an error naming the
    /// path and the reason; one without `mappings/` warns; a `mappings` folder given as `--stubs` is served.
    final class StubsFolderTests: XCTestCase {
        func testMappingsThatCannotBeReadExitThreeNamingThePathAndReason() throws {
            // A symlink loop: unreadable even for root, on every OS.
            let temp = try TemporaryStubs()
            try FileManager.default.removeItem(at: temp.stubs.appendingPathComponent("mappings"))
            try FileManager.default.createSymbolicLink(
                atPath: temp.stubs.appendingPathComponent("mappings").path,
                withDestinationPath: "mappings")
            let run = try StubServerProcess.run(["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
            XCTAssertEqual(run.termination, .exited(3), run.stderr)
            XCTAssertEqual(run.stdout, "")
            XCTAssertTrue(
                run.stderr.contains(
                    "stubserver: error: cannot read stubs directory 'stubs/mappings': Too many levels of symbolic links"
                ),
                run.stderr)
        }

        func testAFolderTheUserCannotReadExitsThreeWithPermissionDenied() throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/hello.json", simpleMapping("/hello", body: "hi"))
            #if os(Linux)
                let isRoot = getuid() == 0
            #else
                let isRoot = false  // Macs run tests as a user
            #endif
            let launcher: [String]
            if isRoot {
                // Root reads everything: run the server as `nobody`, as a CI job or a container user would be.
                let setpriv = "/usr/bin/setpriv"
                guard FileManager.default.isExecutableFile(atPath: setpriv) else {
                    throw XCTSkip("running as root without \(setpriv)")
                }
                launcher = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: temp.root.path)
                try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: temp.stubs.path)
            } else {
                launcher = []
                try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: temp.stubs.path)
            }
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: temp.stubs.path) }
            let binary = try Paths.stubserverBinary().path
            let run = try runToCompletion(launcher + [binary, "--stubs", "stubs", "--port", "0"], in: temp.root)
            if isRoot, run.stderr.contains(binary) { throw XCTSkip("nobody cannot run \(binary): \(run.stderr)") }
            XCTAssertEqual(run.status, 3, run.stderr)
            XCTAssertTrue(
                run.stderr.contains("stubserver: error: cannot read stubs directory 'stubs': Permission denied"),
                run.stderr)
        }

        func testAFolderWithoutMappingsWarnsWhatWasExpected() throws {
            let temp = try TemporaryStubs()
            try FileManager.default.removeItem(at: temp.stubs.appendingPathComponent("mappings"))
            try temp.write("hello.json", simpleMapping("/hello", body: "hi"))
            let server = try StubServerProcess.launch(["--stubs", "stubs", "--port", "0"], currentDirectory: temp.root)
            defer { server.stop() }
            XCTAssertTrue(server.waitForStandardError(containing: "serving 0 stubs"), server.standardError)
            XCTAssertTrue(
                server.standardError.contains(
                    "stubserver: warning: 'stubs' has no mappings/ folder, so no stubs are loaded from files; expected WireMock's layout: stubs/mappings/*.json"
                ),
                server.standardError)
            XCTAssertTrue(
                server.standardError.contains("it holds 1 .json file directly: move them into stubs/mappings/"),
                server.standardError)
        }

        func testAMappingsFolderGivenAsTheStubsDirectoryIsServedWithItsFiles() async throws {
            let temp = try TemporaryStubs()
            try temp.write("__files/greeting.txt", "hello from __files")
            try temp.write(
                "mappings/greeting.json",
                #"{"request": {"url": "/greeting"}, "response": {"bodyFileName": "greeting.txt"}}"#)
            let server = try StubServerProcess.launch(
                ["--stubs", "stubs/mappings", "--port", "0"], currentDirectory: temp.root)
            defer { server.stop() }
            let baseURL = server.baseURL
            let response = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("greeting"))
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello from __files")
            // stderr is drained on its own thread: wait for the line rather than racing it.
            XCTAssertTrue(
                server.waitForStandardError(
                    containing:
                        "stubserver: note: 'stubs/mappings' is a mappings folder; serving 'stubs' as the stubs directory"
                ),
                server.standardError)
        }

        /// Runs `command` in `directory` to completion (at most 15 s); returns its exit status and stderr.
        private func runToCompletion(_ command: [String], in directory: URL) throws -> (status: Int32, stderr: String) {
            let outcome = try ChildProcess.run(
                URL(fileURLWithPath: command[0]), Array(command.dropFirst()),
                currentDirectory: directory, timeout: .seconds(15))
            return (outcome.status, outcome.standardError)
        }
    }
#endif
