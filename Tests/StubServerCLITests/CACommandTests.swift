import Foundation
import Testing

@testable import StubServerCLI

@Suite("stubserver ca: path, export, trust")
struct CACommandTests {
    @Test("The actions and their options parse; --help is the subcommand's")
    func parse() throws {
        #expect(try CommandParser.parse(["ca", "path"]) == .subcommand(CACommand(action: .path)))
        #expect(
            try CommandParser.parse(["ca", "export", "--ca-dir", "/tmp/ca"])
                == .subcommand(CACommand(action: .export(der: false), directory: "/tmp/ca")))
        #expect(
            try CommandParser.parse(["ca", "--der", "export"]) == .subcommand(CACommand(action: .export(der: true))))
        #expect(
            try CommandParser.parse(["ca", "trust", "--simulator", "booted", "--ca-dir=d"])
                == .subcommand(CACommand(action: .trust(simulator: "booted"), directory: "d")))
        let udid = "0F8C6A43-1B2C-4D5E-9F00-A1B2C3D4E5F6"
        #expect(
            try CommandParser.parse(["ca", "trust", "--simulator=\(udid)"])
                == .subcommand(CACommand(action: .trust(simulator: udid))))
        #expect(try CommandParser.parse(["ca", "--help"]) == .subcommandHelp(CACommand.self))
        #expect(Subcommands.listing.contains("  ca "))
    }

    @Test(
        "Bad arguments say what is wrong",
        arguments: [
            ([], "expected an action: path, export or trust"),
            (["list"], "unknown action 'list'; the actions are path, export, trust"),
            (["path", "export"], "unexpected argument 'export'"),
            (["trust"], "trust needs --simulator booted or --simulator UDID"),
            (
                ["trust", "--simulator", "iPhone 16"],
                "--simulator expects 'booted' or a simulator's UDID (xcrun simctl list devices), got 'iPhone 16'"
            ),
            (["path", "--der"], "--der is for export only"),
            (["export", "--simulator", "booted"], "--simulator is for trust only"),
            (["path", "--ca-dir"], "--ca-dir needs a value"),
            (["path", "--ca-dri", "x"], "unknown option '--ca-dri'; did you mean '--ca-dir'?")
        ])
    func errors(arguments: [String], message: String) {
        #expect(throws: CLIError(message, subcommand: "ca")) { try CommandParser.parse(["ca"] + arguments) }
    }

    @Test("path makes the CA and prints ca.crt's path; export prints its PEM or DER")
    func pathAndExport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.appendingPathComponent("ca").path
        let path = capture(CACommand(action: .path, directory: directory))
        #expect(path.code == .success)
        #expect(String(decoding: path.output, as: UTF8.self) == directory + "/ca.crt\n")
        let pem = capture(CACommand(action: .export(der: false), directory: directory))
        let file = try Data(contentsOf: URL(fileURLWithPath: directory + "/ca.crt"))
        #expect(pem.output == Array(file))
        let der = capture(CACommand(action: .export(der: true), directory: directory))
        #expect(der.output.first == 0x30)
        #expect(der.output.count < pem.output.count)
    }

    #if !os(macOS)
        @Test("trust elsewhere than macOS prints the command to run on a Mac and fails")
        func trustElsewhere() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-cli-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let directory = folder.appendingPathComponent("ca").path
            let outcome = capture(CACommand(action: .trust(simulator: "booted"), directory: directory))
            #expect(outcome.code == .failure)
            #expect(outcome.output.isEmpty)
            #expect(outcome.error.hasPrefix("Error: stubserver ca trust needs macOS with Xcode (xcrun simctl)"))
            #expect(outcome.error.hasSuffix("\n  xcrun simctl keychain booted add-root-cert \(directory)/ca.crt\n"))
        }
    #endif

    @Test("A CA folder others can read fails with the message, exit 1")
    func insecureFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.appendingPathComponent("ca").path
        #expect(capture(CACommand(action: .path, directory: directory)).code == .success)
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: directory)
        let outcome = capture(CACommand(action: .path, directory: directory))
        #expect(outcome.code == .failure)
        #expect(outcome.error.contains("run chmod 700 '\(directory)'"))
    }

    private func capture(_ command: CACommand) -> (code: ExitCode, output: [UInt8], error: String) {
        var output: [UInt8] = []
        var error = ""
        let code = command.run(output: { output += $0 }, error: { error += $0 })
        return (code, output, error)
    }
}
