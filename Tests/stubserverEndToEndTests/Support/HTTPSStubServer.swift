// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubTestSupport
    import Testing

    /// The built `stubserver` serving HTTPS (`--https-port 0`) with its CA in a temporary `--ca-dir`, so nothing
    /// of the user's is read or left behind: the folder goes on ``stop()`` and on deinit, the process is stopped by PID.
    ///
    /// ```swift
    /// let server = try HTTPSStubServer.launch()                  // the demo stubs, HTTP and HTTPS
    /// defer { server.stop() }
    /// // … curl --cacert server.caCertificate.path server.httpsURL/hello …
    /// ```
    final class HTTPSStubServer: @unchecked Sendable {  // immutable after launch; `process` is only stopped
        /// The server process (its stdout and stderr, its PID).
        let process: StubServerProcess
        /// `https://127.0.0.1:PORT`, from its `Listening on https://…` line.
        let httpsURL: URL
        /// `http://127.0.0.1:PORT`, from its `Listening on http://…` line; nil with `--https-only`.
        let httpURL: URL?
        /// The temporary folder given as `--ca-dir`.
        let caDirectory: URL
        /// The CA certificate (PEM) the server made in ``caDirectory``: what a client trusts.
        var caCertificate: URL { caDirectory.appendingPathComponent("ca.crt") }
        /// The HTTPS port.
        var httpsPort: Int { httpsURL.port ?? 0 }

        private init(process: StubServerProcess, httpsURL: URL, httpURL: URL?, caDirectory: URL) {
            self.process = process
            self.httpsURL = httpsURL
            self.httpURL = httpURL
            self.caDirectory = caDirectory
        }

        deinit { stop() }

        /// Starts `stubserver --stubs STUBS --https-port 0 --ca-dir TEMP ARGUMENTS` (and `--port 0`), and returns
        /// once it has printed its `Listening on https://…` line and its CA certificate is in the folder.
        static func launch(
            stubs: String = Paths.demoStubs.path, arguments: [String] = [], currentDirectory: URL = Paths.repositoryRoot
        ) throws -> HTTPSStubServer {
            let caDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "stubserver-ca-\(UUID().uuidString)", isDirectory: true)
            let process: StubServerProcess
            do {
                process = try StubServerProcess.launch(
                    ["--stubs", stubs, "--https-port", "0", "--ca-dir", caDirectory.path] + arguments,
                    currentDirectory: currentDirectory)
            } catch {
                try? FileManager.default.removeItem(at: caDirectory)
                throw error
            }
            let caFile = caDirectory.appendingPathComponent("ca.crt")
            let started = eventuallyBlocking(timeout: .seconds(30)) {
                listeningURL(scheme: "https", in: process.standardOutput) != nil
                    && FileManager.default.fileExists(atPath: caFile.path)
            }
            guard started, let httpsURL = listeningURL(scheme: "https", in: process.standardOutput) else {
                process.stop()
                try? FileManager.default.removeItem(at: caDirectory)
                throw TestFailure(
                    "stubserver printed no 'Listening on https://…' line or made no \(caFile.path) within 30 s;"
                        + " stdout:\n\(process.standardOutput)\nstderr:\n\(process.standardError)")
            }
            return HTTPSStubServer(
                process: process, httpsURL: httpsURL,
                httpURL: listeningURL(scheme: "http", in: process.standardOutput), caDirectory: caDirectory)
        }

        /// The URL of the first `Listening on SCHEME://…` line in `output`.
        static func listeningURL(scheme: String, in output: String) -> URL? {
            output.split(separator: "\n").lazy
                .compactMap { line -> URL? in
                    guard line.hasPrefix("Listening on \(scheme)://") else { return nil }
                    return URL(
                        string: String(line.dropFirst("Listening on ".count)).trimmingCharacters(in: .whitespaces))
                }
                .first
        }

        /// `https://NAME:PORT/PATH` for a name the certificate holds (`localhost`, `127.0.0.1`).
        func httpsURL(host: String = "127.0.0.1", _ path: String) -> String {
            "https://\(host):\(httpsPort)\(path)"
        }

        /// Stops the server (SIGTERM, then SIGKILL) and removes the CA folder. Idempotent.
        @discardableResult
        func stop() -> StubServerProcess.Termination {
            let ended = process.stop()
            try? FileManager.default.removeItem(at: caDirectory)
            return ended
        }
    }

    /// A tool found on `PATH` through `/usr/bin/env`, run to completion: curl, openssl, python3, chromium.
    enum Tool {
        /// Runs `name arguments` and returns how it ended and what it printed; killed after `timeout`.
        static func run(
            _ name: String, _ arguments: [String], environment: [String: String] = [:],
            timeout: Duration = .seconds(60)
        ) throws -> ChildProcess.Outcome {
            try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, environment: environment, timeout: timeout)
        }

        /// Makes a new NSS database at `home/.pki/nssdb` (where Chromium reads it with `HOME=home`) trusting the CA
        /// certificate `authority` for servers; an issue is recorded for a `certutil` call that fails.
        static func makeNSSDatabase(home: URL, trusting authority: URL) async throws {
            let database = home.appendingPathComponent(".pki/nssdb")
            try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
            for arguments in [
                ["-N", "-d", "sql:\(database.path)", "--empty-password"],
                ["-A", "-d", "sql:\(database.path)", "-n", "stubserver test CA", "-t", "C,,", "-i", authority.path]
            ] {
                let certutil = try await offPool { try Tool.run("certutil", arguments) }
                #expect(certutil.succeeded, "certutil \(arguments): \(certutil.standardError)")
            }
        }

        /// Whether `name` is on `PATH` (`command -v`).
        static func isInstalled(_ name: String) -> Bool {
            (try? ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "command -v \"$0\"", name], timeout: .seconds(20)))?.succeeded
                ?? false
        }
    }
#endif
