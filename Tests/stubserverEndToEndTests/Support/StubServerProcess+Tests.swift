// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport

    /// The built `stubserver` binary through StubKit's launcher, the one the library's users have, plus
    /// what only these tests need: CLI invocations that exit on their own, and waiting for a stderr line.
    ///
    /// ```swift
    /// let server = try StubServerProcess.launch(["--stubs", "stubs", "--watch"], currentDirectory: temp.root)
    /// defer { server.stop() }
    /// // … server.baseURL …
    /// XCTAssertEqual(server.stop(), .exited(0))
    /// ```
    extension StubServerProcess {
        /// Launches the built `stubserver` with `--port 0` and `arguments` (a `--port` there wins) in
        /// `currentDirectory`, and returns once it listens.
        static func launch(
            _ arguments: [String], currentDirectory: URL = Paths.repositoryRoot,
            environment: [String: String] = [:]
        ) throws -> StubServerProcess {
            try launch(
                executable: Paths.stubserverBinary(), arguments: arguments, currentDirectory: currentDirectory,
                environment: environment)
        }

        /// Runs `stubserver arguments` to completion (an invocation that exits on its own: `check`, `--help`,
        /// bad options or stubs) and returns how it ended and what it printed. One still running after
        /// `timeout` is killed and reported as a failure.
        static func run(
            _ arguments: [String], currentDirectory: URL = Paths.repositoryRoot, environment: [String: String] = [:],
            timeout: Duration = .seconds(15)
        ) throws -> (termination: Termination, stdout: String, stderr: String) {
            let outcome = try ChildProcess.run(
                Paths.stubserverBinary(), arguments, environment: environment,
                currentDirectory: currentDirectory, timeout: timeout)
            let termination: Termination = outcome.exited ? .exited(outcome.status) : .signalled(outcome.status)
            return (termination, outcome.standardOutput, outcome.standardError)
        }

        /// The body `GET path` answers with.
        func body(_ path: String) async throws -> String {
            try await LoopbackClient.send("GET", baseURL.appendingPathComponent(path)).text
        }

        /// Waits until `GET path` answers `expected` (a watched stub file reloaded, say); returns whether it did
        /// within `timeout`.
        func waitForBody(_ path: String, _ expected: String, timeout: Duration = .seconds(10)) async throws -> Bool {
            try await eventually(timeout: timeout, every: .milliseconds(50)) { try await body(path) == expected }
        }

        /// Waits until the last 64 KiB of stderr contain `text`; returns whether they did within `timeout`.
        @discardableResult
        func waitForStandardError(containing text: String, timeout: Duration = .seconds(10)) -> Bool {
            eventuallyBlocking(timeout: timeout) { standardError.contains(text) }
        }
    }
#endif
