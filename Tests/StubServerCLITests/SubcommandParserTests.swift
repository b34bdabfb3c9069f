import Foundation
import Testing

@testable import StubServerCLI

@Suite("Subcommand parsing")
struct SubcommandParserTests {
    @Test("check takes --stubs (and --root-dir) in both forms; the default is Stubs")
    func check() throws {
        #expect(try CommandParser.parse(["check"]) == .subcommand(CheckCommand()))
        #expect(
            try CommandParser.parse(["check", "--stubs", "fixtures"]) == .subcommand(CheckCommand(stubs: "fixtures")))
        #expect(
            try CommandParser.parse(["check", "--root-dir=fixtures"]) == .subcommand(CheckCommand(stubs: "fixtures")))
        #expect(
            try CommandParser.parse(["check", "--global-response-templating"])
                == .subcommand(CheckCommand(globalResponseTemplating: true)))
        #expect(
            try CommandParser.parse(["check", "--host-alias", "API.example.com", "--host-alias=auth.example.com"])
                == .subcommand(CheckCommand(virtualHosts: ["api.example.com", "auth.example.com"])))
        #expect(throws: CLIError.self) { try CommandParser.parse(["check", "--host-alias", "api:80"]) }
    }

    @Test("match reads METHOD URL, repeated -H, -d and -d @FILE, options before or after")
    func match() throws {
        let expected = MatchCommand(
            stubs: "s", method: "POST", target: "/users?page=2",
            headers: [
                .init(name: "Accept", value: "application/json"),
                .init(name: "X-Trace", value: "a: b")
            ],
            body: .text(#"{"login":"octocat"}"#))
        #expect(
            try CommandParser.parse([
                "match", "--stubs", "s", "POST", "/users?page=2", "-H", "Accept: application/json",
                "--header", "X-Trace:a: b", "-d", #"{"login":"octocat"}"#
            ]) == .subcommand(expected))
        #expect(
            try CommandParser.parse([
                "match", "-H", "Accept:application/json", "POST", "-H", "X-Trace: a: b",
                "/users?page=2", "--data=" + #"{"login":"octocat"}"#, "--stubs=s"
            ]) == .subcommand(expected))
        #expect(
            try CommandParser.parse(["match", "put", "/a", "-d", "@body.json"])
                == .subcommand(MatchCommand(method: "PUT", target: "/a", body: .file("body.json"))))
        #expect(
            try CommandParser.parse(["match", "--state", "Login=LoggedIn", "GET", "/a", "--state", "a=b=c"])
                == .subcommand(
                    MatchCommand(method: "GET", target: "/a", scenarioStates: ["Login": "LoggedIn", "a=b": "c"])))
        for bad in ["Login", "=x", "Login="] {
            #expect(throws: CLIError.self) { try CommandParser.parse(["match", "--state", bad, "GET", "/a"]) }
        }
    }

    @Test("A full URL gives the target and the Host header, unless -H Host is given")
    func fullURL() throws {
        #expect(
            try CommandParser.parse(["match", "GET", "http://127.0.0.1:8080/users/octocat?tab=repos"])
                == .subcommand(
                    MatchCommand(
                        method: "GET", target: "/users/octocat?tab=repos",
                        headers: [.init(name: "Host", value: "127.0.0.1:8080")])))
        #expect(
            try CommandParser.parse(["match", "GET", "https://api.example.com", "-H", "host: x"])
                == .subcommand(MatchCommand(method: "GET", target: "/", headers: [.init(name: "host", value: "x")])))
        #expect(
            try CommandParser.parse(["match", "GET", "http://h?q=1"])
                == .subcommand(MatchCommand(method: "GET", target: "/?q=1", headers: [.init(name: "Host", value: "h")]))
        )
    }

    @Test("help SUBCOMMAND and SUBCOMMAND --help print the subcommand's usage")
    func help() throws {
        #expect(try CommandParser.parse(["help"]) == .help)
        #expect(try CommandParser.parse(["help", "check"]) == .subcommandHelp(CheckCommand.self))
        #expect(try CommandParser.parse(["match", "GET", "--help"]) == .subcommandHelp(MatchCommand.self))
        #expect(try CommandParser.parse(["check", "-h"]) == .subcommandHelp(CheckCommand.self))
        #expect(try CommandParser.parse(["help", "match"]) != .subcommandHelp(CheckCommand.self))
        // Names are padded to the longest one, which grows as subcommands are added.
        #expect(
            usageText.range(of: #"SUBCOMMANDS:\n  check +Validate a stubs directory"#, options: .regularExpression)
                != nil)
        for type in Subcommands.all {
            #expect(type.usage.hasPrefix("USAGE: stubserver \(type.name)"))
            #expect(usageText.contains("  \(type.name) "))
        }
    }

    @Test(
        "Bad subcommand arguments are usage errors naming the subcommand",
        arguments: [
            (["check", "--stub", "x"], "unknown option '--stub'; did you mean '--stubs'?", "check"),
            (["check", "extra"], "unexpected argument 'extra'", "check"),
            (["check", "--stubs"], "--stubs needs a value", "check"),
            (["check", "--global-response-templating=yes"], "--global-response-templating takes no value", "check"),
            (["match"], "missing METHOD and URL, e.g. match GET /hello", "match"),
            (["match", "GET"], "missing URL after GET, e.g. match GET /hello", "match"),
            (
                ["match", "GET", "/a", "Accept: x"],
                "unexpected argument 'Accept: x'; quote a header as -H 'Name: value'", "match"
            ),
            (["match", "GET", "users"], "URL must be a path starting with / or an http:// URL, got 'users'", "match"),
            (
                ["match", "GET", "ftp://h/a"], "URL must be a path starting with / or an http:// URL, got 'ftp://h/a'",
                "match"
            ),
            (["match", "GET", "/a", "-H", "Accept"], "-H expects 'Name: value', got 'Accept'", "match"),
            (["match", "G T", "/a"], "METHOD must be a method name such as GET or POST, got 'G T'", "match"),
            (["match", "POST", "/a", "-d", "1", "-d", "2"], "-d is given twice; give the whole body once", "match"),
            (["match", "GET", "/a", "-X", "POST"], "unknown option '-X'", "match")
        ])
    func usageErrors(arguments: [String], message: String, subcommand: String) {
        #expect(throws: CLIError(message, subcommand: subcommand)) { try CommandParser.parse(arguments) }
    }

    @Test("Unknown subcommands are suggested; help for one that does not exist says so")
    func unknownSubcommands() {
        #expect(throws: CLIError("unknown subcommand 'chek'; did you mean 'check'?")) {
            try CommandParser.parse(["chek"])
        }
        // Every registered subcommand, in registry order (more are added over time).
        let names = Subcommands.all.map { $0.name }.joined(separator: ", ")
        #expect(names.hasPrefix("check, match"))
        #expect(throws: CLIError("unknown subcommand 'serve'; the subcommands are \(names)")) {
            try CommandParser.parse(["help", "serve"])
        }
        #expect(throws: CLIError("unexpected argument 'Stubs'; did you mean --stubs Stubs?")) {
            try CommandParser.parse(["Stubs"])
        }
    }

    @Test("-- ends the options: a body or header value may start with dashes")
    func doubleDash() throws {
        #expect(
            try CommandParser.parse(["match", "-d", "-1", "POST", "/n"])
                == .subcommand(MatchCommand(method: "POST", target: "/n", body: .text("-1"))))
        #expect(
            try CommandParser.parse(["match", "--", "GET", "/--help"])
                == .subcommand(MatchCommand(method: "GET", target: "/--help")))
    }
}
