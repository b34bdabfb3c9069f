import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `stubserver` binary running as a child process, its stdout and stderr captured.
///
/// stdout (one line) is read from a pipe by a thread, so ``waitForListening(timeout:)`` returns the
/// moment the line is written. stderr goes to a file: a server writing many near-miss reports never
/// blocks on a full pipe, and a test can read what was written so far at any time.
///
/// ```swift
/// let server = try StubServerProcess(["--stubs", stubs.path, "--port", "0"])
/// defer { server.kill() }
/// let baseURL = try server.waitForListening()
/// server.signal(SIGTERM)
/// XCTAssertEqual(server.waitForExit(), .exited(0))
/// ```
final class StubServerProcess: @unchecked Sendable {
    /// How the process ended.
    enum Termination: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        var description: String {
            switch self {
            case let .exited(code): "exit \(code)"
            case let .signalled(signal): "signal \(signal)"
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process = Process()
    private let outputDirectory: URL
    private let stderrURL: URL
    private let lock = NSLock()
    private var reaped = false
    private let stdout = PipeCollector()

    /// The child's process id.
    var pid: Int32 { process.processIdentifier }

    /// Launches `stubserver` with `arguments` in `currentDirectory` (default: the repository root).
    init(_ arguments: [String], currentDirectory: URL = Paths.repositoryRoot) throws {
        outputDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("stubserver-e2e-out-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        stderrURL = outputDirectory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stderr = try FileHandle(forWritingTo: stderrURL)
        defer { try? stderr.close() }
        process.executableURL = try Paths.stubserverBinary()
        process.arguments = arguments
        process.currentDirectoryURL = currentDirectory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout.pipe
        process.standardError = stderr
        try process.run()
        stdout.startReading()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: outputDirectory)
    }

    /// Runs `stubserver` to completion (for invocations that exit on their own) and returns what it printed.
    /// A process still running after `timeout` is killed and reported as a failure.
    static func run(_ arguments: [String], currentDirectory: URL = Paths.repositoryRoot,
                    timeout: Duration = .seconds(15)) throws -> (termination: Termination, stdout: String, stderr: String) {
        let server = try StubServerProcess(arguments, currentDirectory: currentDirectory)
        guard let termination = server.waitForExit(timeout: timeout) else {
            server.kill()
            throw Failure(description: "stubserver \(arguments.joined(separator: " ")) still running after \(timeout); stderr:\n\(server.standardError)")
        }
        server.stdout.waitForEnd(timeout: .seconds(5))
        return (termination, server.standardOutput, server.standardError)
    }

    /// Everything written to stdout so far.
    var standardOutput: String { stdout.text }
    /// Everything written to stderr so far.
    var standardError: String { Self.read(stderrURL) }

    /// Waits for the first stdout line, `Listening on http://HOST:PORT`, and returns the URL.
    /// - Throws: if the process exits first or nothing is printed within `timeout`.
    func waitForListening(timeout: Duration = .seconds(15)) throws -> URL {
        let output = stdout.waitForFirstLine(timeout: timeout)
        guard let newline = output.firstIndex(of: "\n") else {
            throw Failure(description: "no first stdout line within \(timeout); stderr:\n\(standardError)")
        }
        let firstLine = output[..<newline]
        guard firstLine.hasPrefix("Listening on "), let url = URL(string: String(firstLine.dropFirst("Listening on ".count))) else {
            throw Failure(description: "first stdout line is '\(firstLine)', not 'Listening on URL'; stderr:\n\(standardError)")
        }
        return url
    }

    /// Waits until stderr contains `text`; returns whether it did within `timeout`.
    @discardableResult
    func waitForStandardError(containing text: String, timeout: Duration = .seconds(10)) -> Bool {
        poll(timeout: timeout) { standardError.contains(text) }
    }

    /// Sends `signal` to the child, by PID, if it is still running.
    func signal(_ signal: Int32) {
        lock.withLock {
            guard !reaped, process.isRunning else { return }
            sendSignal(signal, to: process.processIdentifier)
        }
    }

    /// Waits for the child to exit; `nil` if it is still running after `timeout`.
    func waitForExit(timeout: Duration = .seconds(10)) -> Termination? {
        guard poll(timeout: timeout, { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        lock.withLock { reaped = true }
        let status = process.terminationStatus
        return process.terminationReason == .exit ? .exited(status) : .signalled(status)
    }

    /// SIGKILLs the child by PID if it is still running, and reaps it. Idempotent.
    func kill() {
        signal(SIGKILL)
        _ = waitForExit(timeout: .seconds(5))
    }

    private static func read(_ url: URL) -> String {
        (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }
}

/// Reads a pipe on its own thread until EOF, so a waiter wakes the moment a line is written.
private final class PipeCollector: @unchecked Sendable {
    let pipe = Pipe()
    private let lock = NSLock()
    private var bytes = Data()
    private var sawNewlineOrEnd = false
    private let firstLine = DispatchSemaphore(value: 0)
    private let end = DispatchSemaphore(value: 0)

    /// Everything read so far.
    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Closes the parent's write end (the child holds its own) and reads until EOF.
    func startReading() {
        try? pipe.fileHandleForWriting.close()
        let reader = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = reader.availableData
                let wake = lock.withLock {
                    bytes.append(chunk)
                    let wake = !sawNewlineOrEnd && (chunk.isEmpty || chunk.contains(UInt8(ascii: "\n")))
                    if wake { sawNewlineOrEnd = true }
                    return wake
                }
                if wake { firstLine.signal() }
                if chunk.isEmpty { break }
            }
            try? reader.close()
            end.signal()
        }
    }

    /// Waits for a newline or EOF; returns everything read by then (empty after a timeout).
    func waitForFirstLine(timeout: Duration) -> String {
        guard firstLine.wait(timeout: .now() + timeout.seconds) == .success else { return "" }
        firstLine.signal()   // for the next caller
        return text
    }

    /// Waits until EOF has been read.
    func waitForEnd(timeout: Duration) {
        if end.wait(timeout: .now() + timeout.seconds) == .success { end.signal() }
    }
}

private extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// `kill(2)`: the global function, which ``StubServerProcess/kill()`` hides inside the class.
private func sendSignal(_ signal: Int32, to pid: Int32) {
    _ = kill(pid, signal)
}

/// Calls `condition` every 20 ms until it is true or `timeout` passes; returns its last answer.
func poll(timeout: Duration, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        usleep(20_000)
    }
}

/// The async form of ``poll(timeout:_:)``, every 50 ms.
func poll(timeout: Duration, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(50))
    }
}
