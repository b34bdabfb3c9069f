// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
import Foundation
import StubTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests through the `curl` command line tool.
enum CurlClient {
    /// Runs `curl -sS -D headers -o body ARGUMENTS URL` and parses what it wrote.
    static func send(_ arguments: [String], _ url: URL) throws -> Fetched {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let headersFile = directory.appendingPathComponent("headers")
        let bodyFile = directory.appendingPathComponent("body")
        let curl = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
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

    /// Whether `curl` is installed.
    static var isAvailable: Bool { ChildProcess.isInstalled("curl") }
}
#endif
