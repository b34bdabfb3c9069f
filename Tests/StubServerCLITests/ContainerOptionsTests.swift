import Foundation
import Testing

@testable import StubServerCLI

@Suite("Options CI users pass: WireMock's flags, STUBSERVER_OPTIONS, WireMock's Docker root")
struct ContainerOptionsTests {
    @Test(
        "WireMock's --bind-address, --disable-banner, --verbose, --no-request-journal and --global-response-templating are accepted"
    )
    func wireMockFlags() throws {
        var expected = Options()
        expected.host = "0.0.0.0"
        expected.verbose = true
        expected.journal.isEnabled = false
        expected.globalResponseTemplating = true
        #expect(
            try CommandParser.parse([
                "--bind-address", "0.0.0.0", "--disable-banner", "--verbose",
                "--no-request-journal", "--global-response-templating"
            ]) == .serve(expected))
        #expect(
            try CommandParser.parse([
                "--bind-address=0.0.0.0", "--disable-banner", "--verbose",
                "--no-request-journal", "--global-response-templating"
            ]) == .serve(expected))
        #expect(throws: CLIError("--bind-address needs an address, e.g. 127.0.0.1")) {
            try CommandParser.parse(["--bind-address="])
        }
        #expect(throws: CLIError("--disable-banner takes no value")) { try CommandParser.parse(["--disable-banner=1"]) }
        #expect(
            usageText.contains("--bind-address") && usageText.contains("--disable-banner")
                && usageText.contains("STUBSERVER_OPTIONS"))
    }

    @Test(
        "STUBSERVER_OPTIONS is split as a shell splits a simple command line",
        arguments: [
            ("", []),
            ("  --port 9090\t--verbose \n", ["--port", "9090", "--verbose"]),
            (#"--stubs '/my stubs' --host="::1""#, ["--stubs", "/my stubs", "--host=::1"]),
            (#"--stubs /my\ stubs"#, ["--stubs", "/my stubs"]),
            (#"a"b"'c' '' """#, ["abc", "", ""]),
            (#"'it\'s'"#, nil),
            (#""a \"quoted\" \$HOME \x""#, [#"a "quoted" $HOME \x"#]),
            ("$HOME *.json ~", ["$HOME", "*.json", "~"]),
            ("--port 'unterminated", nil),
            (#"--verbose \"#, nil)
        ] as [(String, [String]?)])
    func shellWords(text: String, words: [String]?) throws {
        if let words {
            #expect(try OptionsEnvironment.words(text) == words)
        } else {
            #expect(throws: CLIError.self) { try OptionsEnvironment.words(text) }
        }
    }

    @Test("STUBSERVER_OPTIONS come after the arguments, so they win; only serving reads them")
    func environmentOrder() throws {
        let environment = ["STUBSERVER_OPTIONS": "--port 9090 --verbose"]
        let arguments = try OptionsEnvironment.arguments(
            ["--stubs", "/stubs", "--port", "8080"], environment: environment)
        #expect(arguments == ["--stubs", "/stubs", "--port", "8080", "--port", "9090", "--verbose"])
        guard case let .serve(options) = try CommandParser.parse(arguments) else {
            Issue.record("expected serve")
            return
        }
        #expect(options.port == 9090 && options.verbose && options.stubs == "/stubs")
        #expect(try OptionsEnvironment.arguments([], environment: environment) == ["--port", "9090", "--verbose"])
        #expect(
            try OptionsEnvironment.arguments(["health", "http://127.0.0.1:1"], environment: environment)
                == ["health", "http://127.0.0.1:1"])
        #expect(try OptionsEnvironment.arguments(["--port", "1"], environment: [:]) == ["--port", "1"])
    }

    @Test("WireMock's Testcontainers modules' empty command word is skipped; an option's empty value is still read")
    func emptyWords() throws {
        var expected = Options()
        #expect(try CommandParser.parse([""]) == .serve(expected))
        expected.verbose = true
        #expect(try CommandParser.parse(["", "--disable-banner", "--verbose"]) == .serve(expected))
        #expect(throws: CLIError("--admin-token needs a token, e.g. --admin-token \"$(uuidgen)\"")) {
            try CommandParser.parse(["--admin-token", ""])
        }
        // The options variables are read after an empty first word too.
        let environment = ["STUBSERVER_OPTIONS": "--port 9090"]
        #expect(try OptionsEnvironment.arguments([""], environment: environment) == ["", "--port", "9090"])
    }

    @Test("WIREMOCK_OPTIONS is read as WireMock's image reads it, then STUBSERVER_OPTIONS, which wins")
    func wireMockOptionsVariable() throws {
        let both = ["WIREMOCK_OPTIONS": "--port 9000 --verbose", "STUBSERVER_OPTIONS": "--port 9090"]
        #expect(
            try OptionsEnvironment.arguments(["--port", "1"], environment: both)
                == ["--port", "1", "--port", "9000", "--verbose", "--port", "9090"])
        #expect(throws: CLIError("WIREMOCK_OPTIONS: unterminated ' quote in 'a 'b'")) {
            try OptionsEnvironment.arguments([], environment: ["WIREMOCK_OPTIONS": "a 'b"])
        }
        #expect(OptionsEnvironment.shown(in: both).contains("WIREMOCK_OPTIONS='--port 9000 --verbose'"))
        #expect(OptionsEnvironment.shown(in: [:]) == "")
    }

    @Test("Every WireMock option stubserver does not serve is refused at start naming it, never ignored")
    func unsupportedWireMockOptions() throws {
        #expect(
            throws: CLIError(
                "--extensions is a WireMock option stubserver does not support: Java extensions cannot run in "
                    + "stubserver. Use response templates, closure stubs (in-process) or a proxy stub instead.")
        ) { try CommandParser.parse(["--extensions", "com.example.Transformer"]) }
        for option in WireMockOption.unsupported {
            for name in option.names {
                #expect(ServeOption.named[name] == nil, "\(name) is served and refused")
                #expect(throws: CLIError.self) { try CommandParser.parse([name]) }
                #expect(WireMockOption.refusal(name)?.hasPrefix("\(name) is a WireMock option") == true)
            }
        }
    }
}
