import StubKit
import Testing

@testable import StubServerCLI

@Suite("Command-line parsing")
struct CommandParserTests {
    @Test("No arguments serve ./Stubs on 127.0.0.1:8080")
    func defaults() throws {
        #expect(try CommandParser.parse([]) == .serve(Options()))
    }

    @Test("Every option is read, in both --name value and --name=value forms")
    func allOptions() throws {
        var expected = Options()
        expected.stubs = "/tmp/s"
        expected.port = 0
        expected.host = "::1"
        expected.verbose = true
        expected.watch = true
        #expect(
            try CommandParser.parse(["--stubs", "/tmp/s", "--port", "0", "--host", "::1", "--verbose", "--watch"])
                == .serve(expected))
        #expect(
            try CommandParser.parse(["--stubs=/tmp/s", "--port=0", "--host=::1", "--verbose", "--watch"])
                == .serve(expected))
    }

    @Test("--root-dir is accepted as WireMock spells it")
    func rootDirAlias() throws {
        var expected = Options()
        expected.stubs = "wm"
        #expect(try CommandParser.parse(["--root-dir", "wm"]) == .serve(expected))
    }

    @Test("Logging and journal options, WireMock's spellings included")
    func loggingAndJournalOptions() throws {
        var expected = Options()
        expected.logUnmatched = .line
        expected.journal.maxBytes = 8 << 20
        expected.journal.maxEntries = 500
        expected.journal.isEnabled = false
        #expect(
            try CommandParser.parse([
                "--log-unmatched", "line", "--journal-max-bytes", "8MiB",
                "--max-request-journal-entries", "500", "--no-request-journal"
            ]) == .serve(expected))
        #expect(
            try CommandParser.parse([
                "--log-unmatched=line", "--journal-max-bytes=8388608",
                "--max-request-journal-entries=500", "--no-request-journal"
            ]) == .serve(expected))
        #expect(ByteCount.parse("512KiB") == 512 * 1024)
        #expect(ByteCount.parse("1g") == 1 << 30)
        #expect(ByteCount.parse("64 MiB") == nil)
        #expect(ByteCount.parse("-1") == nil)
    }

    @Test("--max-connections sets the connection limit")
    func maxConnections() throws {
        var expected = Options()
        expected.maxConnections = 64
        #expect(try CommandParser.parse(["--max-connections", "64"]) == .serve(expected))
        #expect(try CommandParser.parse(["--max-connections=64"]) == .serve(expected))
        #expect(Options().maxConnections == 4096)
    }

    @Test("--max-servers sets the isolated server limit; 0 allows none")
    func maxServers() throws {
        var expected = Options()
        expected.maxServers = 3
        #expect(try CommandParser.parse(["--max-servers", "3"]) == .serve(expected))
        expected.maxServers = 0
        #expect(try CommandParser.parse(["--max-servers=0"]) == .serve(expected))
        #expect(Options().maxServers == 16)
    }

    @Test("--template-max-steps and --template-max-output set the template limits")
    func templateLimits() throws {
        var expected = Options()
        expected.templateLimits = TemplateLimits(maxSteps: 5000, maxOutputBytes: 512 << 10)
        #expect(
            try CommandParser.parse(["--template-max-steps", "5000", "--template-max-output", "512KiB"])
                == .serve(expected))
        #expect(
            try CommandParser.parse(["--template-max-steps=5000", "--template-max-output=524288"]) == .serve(expected))
        #expect(Options().templateLimits == TemplateLimits(maxSteps: 1_000_000, maxOutputBytes: 16 << 20))
    }

    @Test("--help and --version win over other options")
    func helpAndVersion() throws {
        #expect(try CommandParser.parse(["--port", "1", "--help"]) == .help)
        #expect(try CommandParser.parse(["-h"]) == .help)
        #expect(try CommandParser.parse(["--version"]) == .version)
    }

    @Test(
        "Bad arguments are usage errors that say what is wrong",
        arguments: [
            (["--port", "http"], "--port expects a number from 0 to 65535, got 'http'"),
            (["--port", "70000"], "--port expects a number from 0 to 65535, got '70000'"),
            (["--port"], "--port needs a value"),
            (["--stubs", "--verbose"], "--stubs needs a value"),
            (["--prot", "80"], "unknown option '--prot'; did you mean '--port'?"),
            (["--frobnicate"], "unknown option '--frobnicate'"),
            (["Stubs"], "unexpected argument 'Stubs'; did you mean --stubs Stubs?"),
            (["--verbose=yes"], "--verbose takes no value"),
            (["--host="], "--host needs an address, e.g. 127.0.0.1"),
            (["--log-unmatched", "all"], "--log-unmatched expects full, line or none, got 'all'"),
            (
                ["--journal-max-bytes", "lots"],
                "--journal-max-bytes expects a size in bytes such as 67108864, 64MiB or 512KiB, got 'lots'"
            ),
            (
                ["--max-request-journal-entries", "0"],
                "--max-request-journal-entries expects a number of at least 1, got '0'"
            ),
            (["--no-request-journal=1"], "--no-request-journal takes no value"),
            (["--max-connections", "0"], "--max-connections expects a number from 1 to 1000000, got '0'"),
            (["--max-connections", "many"], "--max-connections expects a number from 1 to 1000000, got 'many'"),
            (["--max-servers", "-1"], "--max-servers expects a number from 0 to 1024, got '-1'"),
            (["--template-max-steps", "0"], "--template-max-steps expects a number from 1 to 1000000000, got '0'"),
            (
                ["--template-max-output", "big"],
                "--template-max-output expects a size in bytes such as 16777216, 16MiB or 512KiB, got 'big'"
            )
        ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: CLIError(message)) { try CommandParser.parse(arguments) }
    }
}

@Suite("Command-line parsing: admin API access")
struct AdminOptionParsingTests {
    @Test("--admin-token and --no-admin are read; STUBSERVER_ADMIN_TOKEN is the default token")
    func adminOptions() throws {
        var expected = Options()
        expected.adminToken = "t0k"
        #expect(try CommandParser.parse(["--admin-token", "t0k"]) == .serve(expected))
        #expect(try CommandParser.parse(["--admin-token=t0k"]) == .serve(expected))
        #expect(try CommandParser.parse([], environment: ["STUBSERVER_ADMIN_TOKEN": "t0k"]) == .serve(expected))
        expected.adminToken = "flag"
        #expect(
            try CommandParser.parse(["--admin-token", "flag"], environment: ["STUBSERVER_ADMIN_TOKEN": "t0k"])
                == .serve(expected))
        var off = Options()
        off.adminAPIEnabled = false
        #expect(try CommandParser.parse(["--no-admin"]) == .serve(off))
        #expect(throws: CLIError.self) { try CommandParser.parse(["--admin-token"]) }
        #expect(throws: CLIError.self) { try CommandParser.parse(["--admin-token="]) }
        #expect(throws: CLIError.self) { try CommandParser.parse(["--no-admin=yes"]) }
    }

    @Test("--allowed-host is repeatable and lowercased; a URL or a port is refused")
    func allowedHosts() throws {
        var expected = Options()
        expected.allowedHosts = ["stubs.ci.example", "other.example"]
        #expect(
            try CommandParser.parse(["--allowed-host", "Stubs.CI.example", "--allowed-host=other.example"])
                == .serve(expected))
        for bad in ["", "stubs.example:8080", "http://stubs.example", "[::1]"] {
            #expect(
                throws: CLIError(
                    "--allowed-host expects a host name without scheme or port, e.g. --allowed-host stubs.ci.example, got '\(bad)'"
                ),
                "\(bad)"
            ) { try CommandParser.parse(["--allowed-host", bad]) }
        }
    }

    @Test("--host-alias is repeatable and lowercased; a URL, a port or a repeated name is refused")
    func hostAliases() throws {
        var expected = Options()
        expected.virtualHosts = ["api.example.com", "auth.example.com"]
        #expect(
            try CommandParser.parse(["--host-alias", "API.example.com", "--host-alias=auth.example.com"])
                == .serve(expected))
        for bad in ["", "api.example.com:8080", "http://api.example.com", "[::1]", "a b"] {
            #expect(throws: CLIError.self, "\(bad)") { try CommandParser.parse(["--host-alias", bad]) }
        }
        #expect(throws: CLIError("--host-alias API.example.com is given twice")) {
            try CommandParser.parse(["--host-alias", "api.example.com", "--host-alias", "API.example.com"])
        }
    }
}
