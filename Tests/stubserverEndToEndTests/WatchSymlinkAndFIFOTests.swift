// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport
    import XCTest

    /// `--watch` sees what the loader reads: edits made through symlinked stub files and folders are
    /// reloaded, and a FIFO named like a stub file is skipped with a warning saying what it is (never
    /// opened: that would block) without stopping later edits from being seen.
    final class WatchSymlinkAndFIFOTests: XCTestCase {
        /// Makes a FIFO with the `mkfifo` tool (Linux and macOS alike).
        private func makeFIFO(_ url: URL) throws {
            let made = try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["mkfifo", url.path], timeout: .seconds(10))
            guard made.succeeded else { throw TestFailure("mkfifo \(url.path): \(made.standardError)") }
        }

        func testEditsThroughSymlinkedFilesAndFoldersAreReloaded() async throws {
            let temp = try TemporaryStubs()
            let file = try temp.writeOutside("linked.json", simpleMapping("/file", body: "file-v1"))
            let folder = temp.root.appendingPathComponent("shared")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(simpleMapping("/folder", body: "folder-v1").utf8).write(
                to: folder.appendingPathComponent("inside.json"))
            try temp.symlink("mappings/file.json", to: file)
            try temp.symlink("mappings/shared", to: folder)
            let server = try StubServerProcess.launch(["--stubs", "stubs", "--watch"], currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            let initialFile = try await server.body("file")
            let initialFolder = try await server.body("folder")
            XCTAssertEqual([initialFile, initialFolder], ["file-v1", "folder-v1"])

            // Same sizes: only the targets' modification times (or inodes) tell the edits apart.
            try Data(simpleMapping("/file", body: "file-v2").utf8).write(to: file, options: .atomic)
            let fileReloaded = try await server.waitForBody("file", "file-v2")
            XCTAssertTrue(fileReloaded, "edit through a symlinked file not seen; stderr:\n\(server.standardError)")
            try Data(simpleMapping("/folder", body: "folder-v2").utf8).write(
                to: folder.appendingPathComponent("inside.json"))
            let folderReloaded = try await server.waitForBody("folder", "folder-v2")
            XCTAssertTrue(folderReloaded, "edit in a symlinked folder not seen; stderr:\n\(server.standardError)")
            XCTAssertEqual(server.stop(), .exited(0))
        }

        func testAFIFOIsSkippedWithAWarningAndLaterEditsAreStillSeen() async throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/watched.json", simpleMapping("/watched", body: "v1"))
            try makeFIFO(temp.stubs.appendingPathComponent("mappings/pipe.json"))
            let server = try StubServerProcess.launch(["--stubs", "stubs", "--watch"], currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            let warning =
                "stubserver: warning: stubs/mappings/pipe.json is a FIFO (named pipe), not a regular file: skipped"
            XCTAssertTrue(server.waitForStandardError(containing: warning), server.standardError)
            let initial = try await server.body("watched")
            XCTAssertEqual(initial, "v1")

            try temp.write("mappings/watched.json", simpleMapping("/watched", body: "v2"))
            let reloaded = try await server.waitForBody("watched", "v2")
            XCTAssertTrue(reloaded, "edit not seen beside a FIFO; stderr:\n\(server.standardError)")
            XCTAssertTrue(
                server.waitForStandardError(containing: "stubserver: reloaded 1 stub from stubs\n"),
                server.standardError)
            XCTAssertFalse(server.standardError.contains("Permission denied"), server.standardError)
            XCTAssertEqual(server.stop(), .exited(0))
        }

        func testCheckSkipsAFIFOWithTheSameWarning() throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/ok.json", simpleMapping("/ok", body: "ok"))
            try makeFIFO(temp.stubs.appendingPathComponent("mappings/pipe.json"))
            let check = try StubServerProcess.run(
                ["check", "--stubs", "stubs"], currentDirectory: temp.root, timeout: .seconds(30))
            XCTAssertEqual(check.termination, .exited(0), check.stdout + check.stderr)
            XCTAssertTrue(
                (check.stdout + check.stderr).contains(
                    "stubs/mappings/pipe.json is a FIFO (named pipe), not a regular file: skipped"),
                check.stdout + check.stderr)
        }
    }
#endif
