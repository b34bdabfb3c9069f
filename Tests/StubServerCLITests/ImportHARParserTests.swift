import Testing

@testable import StubServerCLI

@Suite("import-har arguments")
struct ImportHARParserTests {
    @Test("The file, --stubs, repeated --host and the secret and body options")
    func parses() throws {
        #expect(
            try CommandParser.parse(["import-har", "capture.har"]) == .subcommand(ImportHARCommand(file: "capture.har"))
        )
        #expect(
            try CommandParser.parse([
                "import-har", "--stubs", "S", "capture.har", "--host", "api.github.com",
                "--host=localhost:8080"
            ])
                == .subcommand(
                    ImportHARCommand(file: "capture.har", stubs: "S", hosts: ["api.github.com", "localhost:8080"])))
        #expect(
            try CommandParser.parse([
                "import-har", "c.har", "--root-dir", "R", "--capture-header", "Accept",
                "--keep-secret", "Cookie", "--keep-all-secrets", "--json-as-received",
                "--record-sequences"
            ])
                == .subcommand(
                    ImportHARCommand(
                        file: "c.har", stubs: "R", captureHeaders: ["Accept"], keptSecrets: ["Cookie"],
                        keepAllSecrets: true, jsonAsReceived: true, recordSequences: true)))
        #expect(try CommandParser.parse(["import-har", "--help"]) == .subcommandHelp(ImportHARCommand.self))
    }

    @Test("Flags become the writer's options")
    func writerOptions() {
        let plain = ImportHARCommand(file: "c.har").writerOptions
        #expect(plain.secrets.isSecretHeader("Cookie"))
        #expect(plain.jsonBodies == .prettyPrinted)
        let kept = ImportHARCommand(
            file: "c.har", captureHeaders: ["Accept"], keptSecrets: ["cookie"], jsonAsReceived: true
        ).writerOptions
        #expect(!kept.secrets.isSecretHeader("Cookie"))
        #expect(kept.secrets.isSecretHeader("Authorization"))
        #expect(kept.captureHeaders == ["Accept"])
        #expect(kept.jsonBodies == .asReceived)
        #expect(!kept.recordsSequences)
        #expect(ImportHARCommand(file: "c.har", recordSequences: true).writerOptions.recordsSequences)
        #expect(
            !ImportHARCommand(file: "c.har", keepAllSecrets: true).writerOptions.secrets.isSecretHeader("Authorization")
        )
    }

    @Test("--host matches the entry's host, and its port when given")
    func hostSelection() {
        let command = ImportHARCommand(file: "c.har", hosts: ["API.github.com", "localhost:8080", "[::1]:9000"])
        #expect(HARCaptureHost.split("localhost:8080") == ("localhost", 8080))
        #expect(HARCaptureHost.split("[::1]:9000") == ("[::1]", 9000))
        #expect(HARCaptureHost.split("api.github.com") == ("api.github.com", nil))
        #expect(command.selects(host: "api.github.com", port: nil))
        #expect(command.selects(host: "api.github.com", port: 443))
        #expect(command.selects(host: "localhost", port: 8080))
        #expect(!command.selects(host: "localhost", port: 8081))
        #expect(command.selects(host: "[::1]", port: 9000))
        #expect(!command.selects(host: "avatars.githubusercontent.com", port: nil))
        #expect(ImportHARCommand(file: "c.har").selects(host: "anything", port: nil))
    }

    @Test(
        "Bad arguments are usage errors naming import-har",
        arguments: [
            (["import-har"], "import-har needs a HAR file"),
            (["import-har", "a.har", "b.har"], "import-har takes one HAR file, got 2"),
            (["import-har", "a.har", "--host"], "--host needs a value"),
            (
                ["import-har", "a.har", "--host", "https://api.github.com/"],
                "--host takes a host name such as api.github.com (or HOST:PORT), not 'https://api.github.com/'"
            ),
            (
                ["import-har", "a.har", "--keep-secrets"],
                "unknown option '--keep-secrets'; did you mean '--keep-secret'?"
            ),
            (["import-har", "a.har", "--json-as-received=yes"], "--json-as-received takes no value")
        ])
    func errors(arguments: [String], message: String) {
        #expect(throws: CLIError(message, subcommand: "import-har")) { try CommandParser.parse(arguments) }
    }
}
