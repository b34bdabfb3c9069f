import Foundation
import StubTestSupport

/// Runs the real curl binary, as a user's scripts and CI would.
enum Curl {
    /// curl's exit code and what it printed for `url` (body to /dev/null).
    static func exitCode(_ url: String) async throws -> (code: Int32, stderr: String) {
        try await offPool { try run(url) }
    }

    private static func run(_ url: String) throws -> (code: Int32, stderr: String) {
        let outcome = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                           ["curl", "-sS", "-o", "/dev/null", "--max-time", "20", url])
        return (outcome.status, outcome.standardError)
    }
}
