import Foundation

/// A Python interpreter that has the `websockets` package: a real WebSocket client for tests. Found through the
/// environment variable `STUBSERVER_PYTHON_WEBSOCKETS` (the interpreter's path), else `python3` when it can import
/// `websockets`; nil when neither (the tests that need it are then skipped, saying so).
///
/// ```sh
/// python3 -m venv /tmp/wsvenv && /tmp/wsvenv/bin/pip install websockets
/// STUBSERVER_PYTHON_WEBSOCKETS=/tmp/wsvenv/bin/python swift test --filter WebSocketPythonClientTests
/// ```
public enum PythonWebSockets {
    /// The environment variable naming the interpreter.
    public static let environmentVariable = "STUBSERVER_PYTHON_WEBSOCKETS"

    /// The interpreter to run, if one has `websockets`.
    public static let interpreter: String? = {
        let named = ProcessInfo.processInfo.environment[environmentVariable].map { [$0] } ?? []
        return (named + ["python3"]).first { canImportWebSockets($0) }
    }()

    /// Runs `script` (`python -c script arguments…`) with ``interpreter`` and returns its stdout, trimmed.
    /// - Throws: ``TestFailure`` with what it printed when it does not exit 0, or when there is no interpreter.
    public static func run(_ script: String, _ arguments: [String], timeout: Duration = .seconds(120)) throws
        -> String
    {
        guard let interpreter else { throw TestFailure("no Python with websockets (set \(environmentVariable))") }
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), [interpreter, "-c", script] + arguments, timeout: timeout)
        let text = outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard outcome.succeeded else { throw TestFailure("python: \(text)\n\(outcome.standardError)") }
        return text
    }

    private static func canImportWebSockets(_ python: String) -> Bool {
        let outcome = try? ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), [python, "-c", "import websockets.sync.client"],
            timeout: .seconds(60))
        return outcome?.succeeded ?? false
    }
}
