import Foundation
import StubProcess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program run to completion, its stdout and stderr read to EOF on their own threads: for tools
/// that end on their own (curl, a Python client, the test binary itself, a CLI invocation that
/// exits). `StubClient.StubServerProcess` runs servers.
public enum ChildProcess {
    /// How the program ended and what it printed.
    public struct Outcome: Sendable {
        /// The exit status, or the signal if it did not exit.
        public var status: Int32
        public var exited: Bool
        public var standardOutput: String
        public var standardError: String
        /// Whether it exited with status 0.
        public var succeeded: Bool { exited && status == 0 }
    }

    /// Runs `executable` with `arguments` (stdin `/dev/null`) and waits for it to end.
    /// - Parameters:
    ///   - environment: variables added to this process's environment.
    ///   - currentDirectory: its working directory; default this process's.
    ///   - timeout: after this it is killed (SIGKILL, by PID) and ``TestFailure`` is thrown. Default 60 s.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        currentDirectory: URL? = nil, timeout: Duration = .seconds(60)
    ) throws -> Outcome {
        #if os(macOS) || os(Linux)
            let output = Pipe()
            let errors = Pipe()
            let process = try SpawnedProcess(
                executable, arguments,
                environment: environment.isEmpty
                    ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
                currentDirectory: currentDirectory,
                output: output.fileHandleForWriting.fileDescriptor, error: errors.fileHandleForWriting.fileDescriptor)
            let readers = DispatchGroup()
            let stdout = readToEnd(output, group: readers)
            let stderr = readToEnd(errors, group: readers)
            let timedOut = !eventuallyBlocking(timeout: timeout) { !process.isRunning }
            if timedOut { process.signal(SIGKILL) }
            let ending = process.waitUntilExit()
            _ = readers.wait(timeout: .now() + 5)
            let (status, exited): (Int32, Bool) =
                switch ending {
                case .exited(let code): (code, true)
                case .signalled(let signal): (signal, false)
                }
            let outcome = Outcome(
                status: status, exited: exited, standardOutput: stdout.text, standardError: stderr.text)
            guard !timedOut else {
                throw TestFailure(
                    "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) still running after "
                        + "\(timeout); stderr:\n\(outcome.standardError)")
            }
            return outcome
        #else
            // iOS, tvOS, watchOS and visionOS processes cannot spawn: tests that need a tool fail with this, never crash.
            throw TestFailure("\(executable.lastPathComponent): child processes cannot be started on this platform")
        #endif
    }

    /// Runs a Python 3 script (`python3 -c script arguments…`) and returns its stdout, trimmed.
    /// - Parameter timeout: default 10 minutes: load loops on a loaded two-core machine take minutes.
    /// - Throws: ``TestFailure`` with what it printed if it does not exit 0.
    public static func python(_ script: String, _ arguments: [String], timeout: Duration = .seconds(600)) throws
        -> String
    {
        let outcome = try run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments, timeout: timeout)
        let text = outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard outcome.succeeded else { throw TestFailure("python: \(text)\n\(outcome.standardError)") }
        return text
    }

    /// Whether `tool` (e.g. `curl`) runs with `--version`.
    public static func isInstalled(_ tool: String) -> Bool {
        (try? run(URL(fileURLWithPath: "/usr/bin/env"), [tool, "--version"], timeout: .seconds(20)))?.succeeded ?? false
    }

    #if os(macOS) || os(Linux)
        private static func readToEnd(_ pipe: Pipe, group: DispatchGroup) -> CollectedOutput {
            try? pipe.fileHandleForWriting.close()
            let collected = CollectedOutput()
            let reader = pipe.fileHandleForReading
            group.enter()
            Thread.detachNewThread {
                collected.set(reader.readDataToEndOfFile())
                try? reader.close()
                group.leave()
            }
            return collected
        }
    #endif
}

#if os(macOS) || os(Linux)
    /// What one reader thread read, handed to the waiting thread.
    private final class CollectedOutput: @unchecked Sendable {  // written by the reader, read after the group waits
        private let lock = NSLock()
        private var data = Data()
        func set(_ data: Data) { lock.withLock { self.data = data } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }
#endif

/// A test helper failed (a program, a client, a file the test expected): what happened.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
