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
        #expect(try CommandParser.parse(["--stubs", "/tmp/s", "--port", "0", "--host", "::1", "--verbose", "--watch"])
            == .serve(expected))
        #expect(try CommandParser.parse(["--stubs=/tmp/s", "--port=0", "--host=::1", "--verbose", "--watch"])
            == .serve(expected))
    }

    @Test("--root-dir is accepted as WireMock spells it")
    func rootDirAlias() throws {
        var expected = Options()
        expected.stubs = "wm"
        #expect(try CommandParser.parse(["--root-dir", "wm"]) == .serve(expected))
    }

    @Test("--help and --version win over other options")
    func helpAndVersion() throws {
        #expect(try CommandParser.parse(["--port", "1", "--help"]) == .help)
        #expect(try CommandParser.parse(["-h"]) == .help)
        #expect(try CommandParser.parse(["--version"]) == .version)
    }

    @Test("Bad arguments are usage errors that say what is wrong", arguments: [
        (["--port", "http"], "--port expects a number from 0 to 65535, got 'http'"),
        (["--port", "70000"], "--port expects a number from 0 to 65535, got '70000'"),
        (["--port"], "--port needs a value"),
        (["--stubs", "--verbose"], "--stubs needs a value"),
        (["--prot", "80"], "unknown option '--prot'; did you mean '--port'?"),
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["Stubs"], "unexpected argument 'Stubs'; did you mean --stubs Stubs?"),
        (["--verbose=yes"], "--verbose takes no value"),
        (["--host="], "--host needs an address, e.g. 127.0.0.1"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: CLIError(message)) { try CommandParser.parse(arguments) }
    }
}
