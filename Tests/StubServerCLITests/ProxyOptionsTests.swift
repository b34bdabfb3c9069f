import Foundation
import Testing

@testable import StubServerCLI

@Suite("Proxy options")
struct ProxyOptionsTests {
    @Test("--proxy-all takes an http or https URL and --proxy-timeout milliseconds")
    func parses() throws {
        var expected = Options()
        expected.proxyAll = URL(string: "https://api.github.com")
        expected.proxyTimeoutMilliseconds = 1500
        #expect(
            try CommandParser.parse(["--proxy-all", "https://api.github.com", "--proxy-timeout", "1500"])
                == .serve(expected))
        #expect(
            try CommandParser.parse(["--proxy-all=https://api.github.com", "--proxy-timeout=1500"]) == .serve(expected))
    }

    @Test(
        "A bad proxy URL or timeout is refused with what is expected",
        arguments: [
            (
                ["--proxy-all", "api.github.com"],
                "--proxy-all expects an http:// or https:// URL such as https://api.github.com, got 'api.github.com'"
            ),
            (
                ["--proxy-all", "ftp://example.com"],
                "--proxy-all expects an http:// or https:// URL such as https://api.github.com, got 'ftp://example.com'"
            ),
            (["--proxy-timeout", "0"], "--proxy-timeout expects milliseconds from 1 to 3600000, got '0'")
        ])
    func refuses(_ arguments: [String], _ message: String) {
        #expect(throws: CLIError(message)) { try CommandParser.parse(arguments) }
    }
}
