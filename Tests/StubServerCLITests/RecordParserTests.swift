import Foundation
import Testing

@testable import StubServerCLI

@Suite("record arguments")
struct RecordParserTests {
    static let github = URL(string: "https://api.github.com")!

    @Test("--target, --stubs, --port, --host and the recording options")
    func parses() throws {
        #expect(
            try CommandParser.parse(["record", "--target", "https://api.github.com"])
                == .subcommand(RecordCommand(target: Self.github)))
        var full = RecordCommand(target: Self.github)
        full.stubs = "Recorded"
        full.port = 0
        full.host = "::1"
        full.captureHeaders = ["Accept", "X-Client"]
        full.recordSequences = true
        full.keptSecrets = ["Cookie"]
        full.jsonAsReceived = true
        full.proxyTimeoutMilliseconds = 5000
        #expect(
            try CommandParser.parse([
                "record", "--target=https://api.github.com", "--root-dir", "Recorded", "--port", "0",
                "--bind-address", "::1", "--capture-header", "Accept", "--capture-header", "X-Client",
                "--record-sequences", "--keep-secret", "Cookie", "--json-as-received",
                "--proxy-timeout", "5000"
            ]) == .subcommand(full))
        #expect(try CommandParser.parse(["record", "--help"]) == .subcommandHelp(RecordCommand.self))
    }

    @Test("The flags become the recording's spec: into --stubs, persisted, secrets listed")
    func spec() {
        var command = RecordCommand(target: Self.github)
        command.stubs = "Out"
        command.captureHeaders = ["Accept"]
        command.recordSequences = true
        let spec = command.spec
        #expect(spec.target == Self.github)
        #expect(spec.persist)
        #expect(spec.directory?.lastPathComponent == "Out")
        #expect(spec.writer.captureHeaders == ["Accept"])
        #expect(spec.writer.recordsSequences)
        #expect(spec.writer.listsUnrecordedSecretHeaders)
        #expect(spec.writer.secrets.isSecretHeader("Authorization"))
        command.keepAllSecrets = true
        #expect(!command.spec.writer.secrets.isSecretHeader("Authorization"))
    }

    @Test("--forward-proxy records each proxied request from its own host; --target is then optional")
    func forwardProxy() throws {
        guard case .subcommand(let parsed) = try CommandParser.parse(["record", "--forward-proxy", "--ca-dir", "ca"]),
            let command = parsed as? RecordCommand
        else {
            Issue.record("not a record command")
            return
        }
        #expect(command.forwardProxy && command.target == nil && command.caDirectory == "ca")
        #expect(command.spec.forwardProxy && command.spec.target == nil)
        #expect(command.spec.source == "every host proxied through the server")
        var both = command
        both.target = Self.github
        #expect(both.spec.source == "\(Self.github.absoluteString) and every host proxied through the server")
    }

    @Test(
        "Bad arguments are usage errors naming record",
        arguments: [
            (
                ["record"],
                "record needs --target URL (the API to forward to, e.g. https://api.github.com) or --forward-proxy"
            ),
            (
                ["record", "--target", "api.github.com"],
                "--target expects an http:// or https:// URL such as https://api.github.com, got 'api.github.com'"
            ),
            (
                ["record", "--target", "https://h", "--port", "70000"],
                "--port expects a number from 0 to 65535, got '70000'"
            ),
            (
                ["record", "--target", "https://h", "--record-sequence"],
                "unknown option '--record-sequence'; did you mean '--record-sequences'?"
            ),
            (["record", "--target", "https://h", "extra"], "unexpected argument 'extra'")
        ])
    func errors(arguments: [String], message: String) {
        #expect(throws: CLIError(message, subcommand: "record")) { try CommandParser.parse(arguments) }
    }
}
