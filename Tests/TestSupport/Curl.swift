import Foundation

/// The real `curl` binary, as a user's scripts and CI run it: for what curl itself does with a response
/// (its exit code for a broken one, `-g` for an IPv6 literal), which neither of ``LoopbackClient``'s modes
/// shows. Runs through ``ChildProcess``, so only on macOS and Linux.
public enum Curl {
    /// Runs `curl -sS -D headers -o body ARGUMENTS URL` and parses what it wrote.
    public static func send(_ arguments: [String], _ url: URL) throws -> Fetched {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let headersFile = directory.appendingPathComponent("headers")
        let bodyFile = directory.appendingPathComponent("body")
        let curl = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["curl", "-sS", "--max-time", "10", "-D", headersFile.path, "-o", bodyFile.path]
                + arguments + [url.absoluteString])
        guard curl.succeeded else {
            throw TestFailure("curl \(arguments) \(url) failed with status \(curl.status): \(curl.standardError)")
        }
        let head = (try? String(contentsOf: headersFile, encoding: .utf8)) ?? ""
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw TestFailure("curl wrote no status line") }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestFailure("bad status line in \(head)")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = (try? Data(contentsOf: bodyFile)) ?? Data()
        return Fetched(status: status, body: body, headers: headers)
    }

    /// curl's exit code and what it printed for `url` (body to /dev/null).
    public static func exitCode(_ url: String) async throws -> (code: Int32, stderr: String) {
        try await offPool { try runForExitCode(url) }
    }

    private static func runForExitCode(_ url: String) throws -> (code: Int32, stderr: String) {
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["curl", "-sS", "-o", "/dev/null", "--max-time", "20", url])
        return (outcome.status, outcome.standardError)
    }

    /// Whether `curl` is installed.
    public static var isAvailable: Bool { ChildProcess.isInstalled("curl") }
}
