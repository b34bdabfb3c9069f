// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import XCTest
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// An HTTPS server on 127.0.0.1 (Python's `http.server` in `ssl`, `Tests/Fixtures/TLS/https-upstream.py`)
    /// with a certificate from a throwaway CA that `openssl` makes for this test run: nothing from the
    /// machine, nothing left behind (the folder goes on deinit, the server is stopped by PID).
    ///
    /// ```swift
    /// let upstream = try TLSUpstream()          // throws XCTSkip if openssl or python3 is missing
    /// defer { upstream.stop() }
    /// // … proxy to upstream.baseURL; upstream.caCertificate is the CA to trust …
    /// ```
    final class TLSUpstream: @unchecked Sendable {  // immutable after init; `process` is only stopped
        static let fixtures = Paths.repositoryRoot.appendingPathComponent("Tests/Fixtures/TLS")

        /// The folder holding the CA, the server's key and certificate, and the request log.
        let folder: URL
        /// `https://127.0.0.1:PORT`.
        let baseURL: URL
        /// The CA that signed the server's certificate (PEM).
        var caCertificate: URL { folder.appendingPathComponent("ca.pem") }
        private let process: Process

        init() throws {
            for (tool, versionArgument) in [("openssl", "version"), ("python3", "--version")] {
                let found = try? ChildProcess.run(
                    URL(fileURLWithPath: "/usr/bin/env"), [tool, versionArgument], timeout: .seconds(60))
                guard found?.succeeded == true else {
                    throw XCTSkip(
                        "\(tool) is not installed: the HTTPS upstream tests need it to make a test CA and serve TLS")
                }
            }
            folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "stubserver-tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            do {
                try Self.makeCertificates(in: folder)
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
            let portFile = folder.appendingPathComponent("port")
            let stderrFile = folder.appendingPathComponent("stderr")
            try Data().write(to: stderrFile)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "python3", Self.fixtures.appendingPathComponent("https-upstream.py").path,
                "server.pem", "server.key", portFile.path, "requests.log"
            ]
            process.currentDirectoryURL = folder
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: stderrFile)
            try process.run()
            self.process = process
            let started = eventuallyBlocking(timeout: .seconds(60)) {
                !process.isRunning || FileManager.default.fileExists(atPath: portFile.path)
            }
            let port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
            guard started, let port, let url = URL(string: "https://127.0.0.1:\(port)") else {
                let stderr = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
                Self.stop(process)
                try? FileManager.default.removeItem(at: folder)
                throw TestFailure("the HTTPS upstream did not start; stderr:\n\(stderr)")
            }
            baseURL = url
        }

        deinit { stop() }

        /// Stops the server (SIGKILL by PID: a launched child may inherit a mask that blocks SIGTERM), waits
        /// for it and removes the folder. Idempotent.
        func stop() {
            Self.stop(process)
            try? FileManager.default.removeItem(at: folder)
        }

        private static func stop(_ process: Process) {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// The requests that reached the server, one JSON object a line, in order.
        var requests: [String] {
            let text = (try? String(contentsOf: folder.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map(String.init)
        }

        /// `ca.pem`/`ca.key` (a CA) and `server.pem`/`server.key` (signed by it for 127.0.0.1 and localhost).
        private static func makeCertificates(in folder: URL) throws {
            let config = fixtures.appendingPathComponent("openssl.cnf").path
            let steps = [
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days",
                    "7",
                    "-subj", "/CN=stubserver test CA", "-config", config, "-extensions", "ca"
                ],
                [
                    "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
                    "-subj", "/CN=127.0.0.1", "-config", config
                ],
                [
                    "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                    "-out", "server.pem", "-days", "7", "-extfile", config, "-extensions", "server"
                ]
            ]
            for arguments in steps {
                let run = try ChildProcess.run(
                    URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments,
                    currentDirectory: folder, timeout: .seconds(120))
                guard run.succeeded else {
                    throw TestFailure("openssl \(arguments.joined(separator: " ")) failed: \(run.standardError)")
                }
            }
        }
    }
#endif
