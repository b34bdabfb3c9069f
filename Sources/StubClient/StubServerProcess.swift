import StubHTTP
import StubKit
import StubProcess

#if os(macOS) || os(Linux)
    import Foundation
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The `stubserver` command line running as a child process, driven through its admin API — what a
    /// test uses to check the real binary, or a server shared by several test processes.
    ///
    /// It starts the CLI with `--port 0`, reads the port from its first line (`Listening on http://…`),
    /// keeps reading its stdout and stderr (the last 64 KiB of each are kept for messages) so it never
    /// blocks on a full pipe, and stops it on ``stop()`` or when released: SIGTERM, then SIGKILL if it is
    /// still running after ``stopTimeout``.
    ///
    /// ```swift
    /// let server = try StubServerProcess.launch(executable: binaryURL, stubs: stubsURL)
    /// defer { server.stop() }
    /// try await server.stub(.get("/hello"), .text("hi"))
    /// // … point the app at server.baseURL …
    /// #expect(try await server.received(.get("/hello")) == 1)
    /// ```
    public final class StubServerProcess {
        /// How the process ended.
        public enum Termination: Sendable, Hashable, CustomStringConvertible {
            case exited(Int32)
            case signalled(Int32)

            public var description: String {
                switch self {
                case let .exited(code): "exit \(code)"
                case let .signalled(signal): "signal \(signal)"
                }
            }
        }

        /// The server's address, from its first line.
        public let baseURL: URL
        /// A client to the server's admin API; every `StubServerAdmin` call goes through it.
        public let client: StubServerClient
        /// How long ``stop()`` waits after SIGTERM before SIGKILL. Default 10 seconds.
        public let stopTimeout: Duration
        private let process: SpawnedProcess
        private let output: OutputDrain
        private let errors: OutputDrain
        private let termination = LockedValue<Termination?>(nil)

        /// The child's process id.
        public var pid: Int32 { process.pid }
        /// The last 64 KiB the server wrote to stdout.
        public var standardOutput: String { output.text }
        /// The last 64 KiB the server wrote to stderr (warnings, near-miss reports, request log).
        public var standardError: String { errors.text }

        /// Starts `executable` (the `stubserver` binary) with `--stubs stubs --port 0` and `arguments`, and
        /// waits for its `Listening on` line.
        /// - Parameters:
        ///   - executable: the `stubserver` binary.
        ///   - stubs: its stubs directory, or `nil` to pass none (the CLI then uses `./Stubs`).
        ///   - arguments: more options, e.g. `["--verbose"]`. `--port 0` comes first, so a `--port` here wins;
        ///     a first word that is not an option (a serving subcommand: `["record", "--target", URL]`) stays first.
        ///   - currentDirectory: its working directory. Default: this process's.
        ///   - environment: variables added to this process's environment for it (e.g. `STUBSERVER_OPTIONS`).
        ///   - startTimeout: how long to wait for the first line. Default 30 seconds.
        ///   - stopTimeout: how long ``stop()`` waits after SIGTERM before SIGKILL. Default 10 seconds.
        /// - Throws: ``StubServerProcessError`` with the process's stderr if it cannot start, exits, or
        ///   prints something else first.
        public static func launch(
            executable: URL, stubs: URL? = nil, arguments: [String] = [],
            currentDirectory: URL? = nil, environment: [String: String] = [:],
            startTimeout: Duration = .seconds(30),
            stopTimeout: Duration = .seconds(10)
        ) throws(StubServerProcessError) -> StubServerProcess {
            let output = OutputDrain()
            let errors = OutputDrain()
            // A serving subcommand (`record`) stays the first word: `--port 0` goes after it.
            let subcommand = arguments.first.map { !$0.hasPrefix("-") } == true ? Array(arguments.prefix(1)) : []
            let process: SpawnedProcess
            do {
                process = try SpawnedProcess(
                    executable,
                    subcommand + (stubs.map { ["--stubs", $0.path] } ?? []) + ["--port", "0"]
                        + arguments.dropFirst(subcommand.count),
                    environment: environment.isEmpty
                        ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
                    currentDirectory: currentDirectory,
                    output: output.pipe.fileHandleForWriting.fileDescriptor,
                    error: errors.pipe.fileHandleForWriting.fileDescriptor)
            } catch {
                throw StubServerProcessError(
                    description: "cannot start \(executable.path): \(error.localizedDescription)")
            }
            output.start()
            errors.start()
            let line = output.waitForFirstLine(timeout: startTimeout)
            guard let line, line.hasPrefix("Listening on "),
                let url = URL(string: String(line.dropFirst("Listening on ".count)))
            else {
                Self.kill(process, output: output, errors: errors, timeout: .seconds(5))
                let reason =
                    line.map { "printed '\($0)' instead of 'Listening on URL'" }
                    ?? "printed no 'Listening on' line within \(startTimeout)"
                errors.waitForEnd(timeout: .seconds(2))
                throw StubServerProcessError(
                    description: "\(executable.lastPathComponent) \(reason); stderr:\n\(errors.text)")
            }
            return StubServerProcess(
                process: process, output: output, errors: errors, baseURL: url, stopTimeout: stopTimeout)
        }

        private init(
            process: SpawnedProcess, output: OutputDrain, errors: OutputDrain, baseURL: URL, stopTimeout: Duration
        ) {
            self.process = process
            self.output = output
            self.errors = errors
            self.baseURL = baseURL
            self.stopTimeout = stopTimeout
            client = StubServerClient(baseURL: baseURL)
        }

        deinit { stop() }

        /// Stops the server: SIGTERM (a graceful stop, exit 0), then SIGKILL if it is still running after
        /// ``stopTimeout``. Idempotent. Returns how it ended.
        @discardableResult
        public func stop() -> Termination {
            if let ended = termination.withLock({ $0 }) { return ended }
            let ended = Self.kill(process, output: output, errors: errors, timeout: stopTimeout)
            termination.withLock { $0 = ended }
            return ended
        }

        /// Sends `signal` (e.g. `SIGTERM`) to the server, by PID, if it is still running, and returns at
        /// once: to watch a graceful stop while requests are in flight. ``waitForExit(timeout:)`` reaps it.
        public func signal(_ signal: Int32) {
            guard termination.withLock({ $0 == nil }), process.isRunning else { return }
            process.signal(signal)
        }

        /// Waits up to `timeout` for the process to exit by itself (e.g. after `POST /__admin/shutdown`);
        /// `nil` if it is still running. Once it has exited, ``standardOutput`` and ``standardError`` hold
        /// everything it wrote last.
        public func waitForExit(timeout: Duration) -> Termination? {
            if let ended = termination.withLock({ $0 }) { return ended }
            let deadline = ContinuousClock.now + timeout
            while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            guard !process.isRunning else { return nil }
            let ended = Self.reap(process)
            output.waitForEnd(timeout: .seconds(2))
            errors.waitForEnd(timeout: .seconds(2))
            termination.withLock { $0 = ended }
            return ended
        }

        /// SIGTERM, wait up to `timeout`, SIGKILL; then reap the child and let the readers reach EOF.
        @discardableResult
        private static func kill(_ process: SpawnedProcess, output: OutputDrain, errors: OutputDrain, timeout: Duration)
            -> Termination
        {
            if process.isRunning {
                process.signal(SIGTERM)
                let deadline = ContinuousClock.now + timeout
                while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
                if process.isRunning { process.signal(SIGKILL) }
            }
            let ended = reap(process)
            output.waitForEnd(timeout: .seconds(2))
            errors.waitForEnd(timeout: .seconds(2))
            return ended
        }

        private static func reap(_ process: SpawnedProcess) -> Termination {
            switch process.waitUntilExit() {
            case .exited(let code): .exited(code)
            case .signalled(let signal): .signalled(signal)
            }
        }
    }

    /// ``StubServerProcess`` could not start the server.
    public struct StubServerProcessError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What happened, with the process's stderr.
        public let description: String
    }

    /// Every operation goes to the server through ``StubServerProcess/client``.
    extension StubServerProcess: StubServerAdminForwarding {
        /// ``client``.
        public var forwardee: any StubServerAdmin { client }

        /// Takes the server offline for `duration`, then it is back by itself (``StubServerClient/goOffline(for:)``).
        public func goOffline(for duration: Duration) async throws { try await client.goOffline(for: duration) }
        /// Makes the server hang for `duration` (``StubServerClient/hang(for:)``).
        public func hang(for duration: Duration) async throws { try await client.hang(for: duration) }
        /// Brings the server back online (``StubServerClient/goOnline()``).
        public func goOnline() async throws { try await client.goOnline() }
    }
#endif
