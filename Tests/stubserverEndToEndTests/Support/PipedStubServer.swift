// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// `stubserver` started the way many harnesses start it: stdout and stderr both pipes, the first stdout
    /// line read, and stderr left unread (Python's `subprocess.PIPE`, a Swift `Process` with a `Pipe`) until
    /// the test calls ``startReadingStandardError()``, if ever.
    ///
    /// Not StubKit's `StubServerProcess`: that launcher always drains both pipes, which is what this one
    /// must not do.
    final class PipedStubServer: @unchecked Sendable {
        private let process = Process()
        private let stdout = Pipe()
        private let stderr = Pipe()
        private let lock = NSLock()
        private var stderrBytes = Data()

        var pid: Int32 { process.processIdentifier }
        var isRunning: Bool { process.isRunning }

        init(_ arguments: [String]) throws {
            process.executableURL = try Paths.stubserverBinary()
            process.arguments = arguments
            process.currentDirectoryURL = Paths.repositoryRoot
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            try? stdout.fileHandleForWriting.close()
            try? stderr.fileHandleForWriting.close()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        /// Reads stdout up to the first newline and returns the port of `Listening on http://HOST:PORT`.
        func waitForPort() throws -> Int {
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = stdout.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.split(separator: "\n").first?.lastIndex(of: ":"),
                let port = Int(text[text.index(after: colon)...].prefix { $0.isNumber })
            else {
                throw TestFailure("no 'Listening on' line on stdout: '\(text)'")
            }
            return port
        }

        /// From now on, reads stderr on a thread until EOF (the pipe drains).
        func startReadingStandardError() {
            let reader = stderr.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = reader.availableData
                    if chunk.isEmpty { break }
                    lock.withLock { stderrBytes.append(chunk) }
                }
            }
        }

        /// What the stderr reader has read so far.
        var standardError: String { lock.withLock { String(decoding: stderrBytes, as: UTF8.self) } }

        func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

        /// Waits for exit; returns the exit status and how long it took, or `nil` if still running after `timeout`.
        func waitForExit(timeout: Duration) -> (status: Int32, reason: Process.TerminationReason, took: Duration)? {
            let start = ContinuousClock.now
            guard eventuallyBlocking(timeout: timeout, { !process.isRunning }) else { return nil }
            process.waitUntilExit()
            return (process.terminationStatus, process.terminationReason, ContinuousClock.now - start)
        }
    }

    /// Runs a Python `http.client` loop: `count` keep-alive `GET`s of `path` (`{n}` replaced by the request
    /// number), each with a 10 s timeout. Returns how many were answered with `status`, or throws with
    /// what Python printed when one was not answered.
    func pythonGetLoop(port: Int, path: String, count: Int, status: Int) throws -> Int {
        let script = """
            import http.client, sys
            port, path, count, want = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            ok = 0
            for n in range(count):
                try:
                    c.request("GET", path.replace("{n}", str(n)))
                    r = c.getresponse()
                    r.read()
                except Exception as e:
                    print("request %d of %d not answered: %r" % (n + 1, count, e))
                    sys.exit(1)
                if r.status == want:
                    ok += 1
            print(ok)
            """
        // Each request has its own 10 s timeout, which is what catches a hung server; the whole loop's bound is a
        // backstop only, sized for thousands of requests to a debug build on a loaded machine.
        let text = try ChildProcess.python(
            script, [String(port), path, String(count), String(status)],
            timeout: .seconds(max(60, count / 10)))
        guard let answered = Int(text) else { throw TestFailure("python client: \(text)") }
        return answered
    }
#endif
