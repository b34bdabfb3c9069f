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

    @Test("An empty stubs directory serves WireMock's Docker root when that has mappings")
    func wireMockDockerRoot() throws {
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("stubs-root-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temp) }
        let stubs = temp.appendingPathComponent("stubs").path
        let wireMock = temp.appendingPathComponent("wiremock").path
        try FileManager.default.createDirectory(atPath: stubs + "/mappings", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: wireMock + "/mappings", withIntermediateDirectories: true)

        // WireMock's root has no mappings either: nothing changes.
        #expect(StubsRoot.resolve(stubs, wireMockRoot: wireMock) == (stubs, nil))

        try Data("{}".utf8).write(to: URL(fileURLWithPath: wireMock + "/mappings/hello.json"))
        let (path, note) = StubsRoot.resolve(stubs, wireMockRoot: wireMock)
        #expect(path == wireMock)
        #expect(
            note
                == "note: no stubs in '\(stubs)', but \(wireMock)/mappings has some (WireMock's Docker layout): serving '\(wireMock)'"
        )
        // Given WireMock's root itself, or a stubs directory without mappings/: unchanged / WireMock's root.
        #expect(StubsRoot.resolve(wireMock, wireMockRoot: wireMock) == (wireMock, nil))
        #expect(StubsRoot.resolve(temp.appendingPathComponent("missing").path, wireMockRoot: wireMock).path == wireMock)

        // A stubs directory with stubs of its own, or .json files of its own (a mounted mappings folder, which
        // the loader warns about), is served as given.
        try Data("{}".utf8).write(to: URL(fileURLWithPath: stubs + "/mappings/own.json"))
        #expect(StubsRoot.resolve(stubs, wireMockRoot: wireMock) == (stubs, nil))
        let mappingsMount = temp.appendingPathComponent("mounted-mappings").path
        try FileManager.default.createDirectory(atPath: mappingsMount, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: mappingsMount + "/users.json"))
        #expect(StubsRoot.resolve(mappingsMount, wireMockRoot: wireMock) == (mappingsMount, nil))
    }
}
