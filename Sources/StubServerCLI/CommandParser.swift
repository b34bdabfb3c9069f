#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubKit

/// Parses `stubserver`'s arguments into a ``Command``. Pure: no I/O, so every case is unit-tested.
///
/// ```swift
/// let command = try CommandParser.parse(["--stubs", "Stubs", "--port", "0"])
/// ```
public enum CommandParser {
    private static let valueOptions = ["--stubs", "--root-dir", "--port", "--host", "--bind-address", "--global-delay", "--network", "--bandwidth",
                                       "--log-unmatched", "--journal-max-bytes", "--max-request-journal-entries", "--admin-token",
                                       "--allowed-host",
                                       "--proxy-all", "--proxy-timeout",
                                       "--shutdown-grace", "--max-connections", "--template-max-steps", "--template-max-output"]
    private static let flags = ["--verbose", "--watch", "--no-request-journal", "--no-admin", "--version", "--help", "-h",
                                "--global-response-templating", "--local-response-templating", "--disable-banner"]

    /// Parses the arguments after the program name.
    /// - Parameter environment: the process environment; `STUBSERVER_ADMIN_TOKEN` is the default
    ///   `--admin-token`.
    /// - Throws: ``CLIError`` naming the offending argument.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(CLIError) -> Command {
        if let first = arguments.first, !first.hasPrefix("-") {
            if first == "help" { return try help(Array(arguments.dropFirst())) }
            if let type = Subcommands.named(first) { return try subcommand(type, Array(arguments.dropFirst())) }
        }
        var options = Options()
        if let token = environment["STUBSERVER_ADMIN_TOKEN"], !token.isEmpty { options.adminToken = token }
        var wantsVersion = false
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                inlineValue = String(argument[argument.index(after: eq)...])
            }
            switch name {
            case "-h", "--help":
                return .help
            case "--version":
                wantsVersion = true
            case "--verbose":
                try noValue(name, inlineValue)
                options.verbose = true
            case "--watch":
                try noValue(name, inlineValue)
                options.watch = true
            case "--global-response-templating":
                try noValue(name, inlineValue)
                options.globalResponseTemplating = true
            case "--local-response-templating":
                // WireMock 2's flag for the default: only stubs that ask for "response-template".
                try noValue(name, inlineValue)
                options.globalResponseTemplating = false
            case "--stubs", "--root-dir":
                options.stubs = try value(for: name, inlineValue, &remaining)
                if options.stubs.isEmpty { throw CLIError("\(name) needs a directory") }
            case "--host", "--bind-address":
                options.host = try value(for: name, inlineValue, &remaining)
                if options.host.isEmpty { throw CLIError("\(name) needs an address, e.g. 127.0.0.1") }
            case "--disable-banner":
                // WireMock's flag: stubserver prints no banner (its first line is `Listening on …`).
                try noValue(name, inlineValue)
            case "--port":
                let text = try value(for: name, inlineValue, &remaining)
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw CLIError("--port expects a number from 0 to 65535, got '\(text)'")
                }
                options.port = port
            case "--global-delay":
                let text = try value(for: name, inlineValue, &remaining)
                guard let delay = Int(text), (0...3_600_000).contains(delay) else {
                    throw CLIError("--global-delay expects milliseconds from 0 to 3600000, got '\(text)'")
                }
                options.globalDelayMilliseconds = delay
            case "--network":
                let text = try value(for: name, inlineValue, &remaining)
                guard let profile = NetworkProfile(named: text) else {
                    let names = NetworkProfile.named.map(\.name).joined(separator: ", ")
                    throw CLIError("--network expects one of \(names), got '\(text)'")
                }
                options.network = profile
            case "--bandwidth":
                let text = try value(for: name, inlineValue, &remaining)
                guard let rate = Int(text), rate > 0 else {
                    throw CLIError("--bandwidth expects bytes per second (a number above 0), got '\(text)'")
                }
                options.bytesPerSecond = rate
            case "--log-unmatched":
                let text = try value(for: name, inlineValue, &remaining)
                guard let mode = UnmatchedRequestLogging(rawValue: text) else {
                    throw CLIError("--log-unmatched expects full, line or none, got '\(text)'")
                }
                options.logUnmatched = mode
            case "--journal-max-bytes":
                let text = try value(for: name, inlineValue, &remaining)
                guard let bytes = ByteCount.parse(text) else {
                    throw CLIError("--journal-max-bytes expects a size in bytes such as 67108864, 64MiB or 512KiB, got '\(text)'")
                }
                options.journal.maxBytes = bytes
            case "--max-request-journal-entries":
                let text = try value(for: name, inlineValue, &remaining)
                guard let entries = Int(text), entries >= 1 else {
                    throw CLIError("--max-request-journal-entries expects a number of at least 1, got '\(text)'")
                }
                options.journal.maxEntries = entries
            case "--proxy-all":
                let text = try value(for: name, inlineValue, &remaining)
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil else {
                    throw CLIError("--proxy-all expects an http:// or https:// URL such as https://api.github.com, got '\(text)'")
                }
                guard ProxySettings.isForwardingAvailable else { throw CLIError("--proxy-all: \(ProxySettings.unavailableReason)") }
                options.proxyAll = url
            case "--proxy-timeout":
                let text = try value(for: name, inlineValue, &remaining)
                guard let milliseconds = Int(text), (1...3_600_000).contains(milliseconds) else {
                    throw CLIError("--proxy-timeout expects milliseconds from 1 to 3600000, got '\(text)'")
                }
                options.proxyTimeoutMilliseconds = milliseconds
            case "--shutdown-grace":
                let text = try value(for: name, inlineValue, &remaining)
                guard let seconds = Double(text), seconds.isFinite, (0...3600).contains(seconds) else {
                    throw CLIError("--shutdown-grace expects seconds from 0 to 3600 (e.g. 5 or 0.5), got '\(text)'")
                }
                options.shutdownGrace = .milliseconds(Int64((seconds * 1000).rounded()))
            case "--max-connections":
                let text = try value(for: name, inlineValue, &remaining)
                guard let count = Int(text), (1...1_000_000).contains(count) else {
                    throw CLIError("--max-connections expects a number from 1 to 1000000, got '\(text)'")
                }
                options.maxConnections = count
            case "--template-max-steps":
                let text = try value(for: name, inlineValue, &remaining)
                guard let steps = Int(text), (1...1_000_000_000).contains(steps) else {
                    throw CLIError("--template-max-steps expects a number from 1 to 1000000000, got '\(text)'")
                }
                options.templateLimits.maxSteps = steps
            case "--template-max-output":
                let text = try value(for: name, inlineValue, &remaining)
                guard let bytes = ByteCount.parse(text), bytes >= 1 else {
                    throw CLIError("--template-max-output expects a size in bytes such as 16777216, 16MiB or 512KiB, got '\(text)'")
                }
                options.templateLimits.maxOutputBytes = bytes
            case "--max-json-match-body":
                let text = try value(for: name, inlineValue, &remaining)
                guard let bytes = ByteCount.parse(text) else {
                    throw CLIError("--max-json-match-body expects a size in bytes such as 4194304, 4MiB or 512KiB, got '\(text)'")
                }
                options.jsonMatchBodyLimit = bytes
            case "--no-request-journal":
                try noValue(name, inlineValue)
                options.journal.isEnabled = false
            case "--admin-token":
                let token = try value(for: name, inlineValue, &remaining)
                if token.isEmpty { throw CLIError("--admin-token needs a token, e.g. --admin-token \"$(uuidgen)\"") }
                options.adminToken = token
            case "--allowed-host":
                let host = try value(for: name, inlineValue, &remaining)
                guard !host.isEmpty, !host.contains(where: { ":/ []".contains($0) }) else {
                    throw CLIError("--allowed-host expects a host name without scheme or port, e.g. --allowed-host stubs.ci.example, got '\(host)'")
                }
                options.allowedHosts.append(host.lowercased())
            case "--no-admin":
                try noValue(name, inlineValue)
                options.adminAPIEnabled = false
            default:
                throw unknown(argument: argument, name: name)
            }
        }
        return wantsVersion ? .version : .serve(options)
    }

    /// `stubserver help [SUBCOMMAND]`.
    private static func help(_ arguments: [String]) throws(CLIError) -> Command {
        guard let name = arguments.first else { return .help }
        guard arguments.count == 1 else { throw CLIError("help takes one subcommand name, got \(arguments.count)") }
        if let type = Subcommands.named(name) { return .subcommandHelp(type) }
        throw unknownSubcommand(name)
    }

    /// `stubserver NAME ARGUMENTS…`: `--help`/`-h` anywhere before `--` print the subcommand's usage.
    private static func subcommand(_ type: any Subcommand.Type, _ arguments: [String]) throws(CLIError) -> Command {
        let options = arguments.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h") { return .subcommandHelp(type) }
        do {
            return .subcommand(try type.parse(arguments))
        } catch {
            throw CLIError(error.message, subcommand: type.name)
        }
    }

    private static func unknownSubcommand(_ name: String) -> CLIError {
        let names = Subcommands.all.map { $0.name }
        if let suggestion = FieldSuggestion.closest(to: name, among: names) {
            return CLIError("unknown subcommand '\(name)'; did you mean '\(suggestion)'?")
        }
        return CLIError("unknown subcommand '\(name)'; the subcommands are \(names.joined(separator: ", "))")
    }

    private static func value(for name: String, _ inline: String?,
                              _ remaining: inout ArraySlice<String>) throws(CLIError) -> String {
        if let inline { return inline }
        guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
            throw CLIError("\(name) needs a value")
        }
        return next
    }

    private static func noValue(_ name: String, _ inline: String?) throws(CLIError) {
        if inline != nil { throw CLIError("\(name) takes no value") }
    }

    private static func unknown(argument: String, name: String) -> CLIError {
        guard name.hasPrefix("-") else {
            if let suggestion = FieldSuggestion.closest(to: argument, among: Subcommands.all.map { $0.name } + ["help"]) {
                return CLIError("unknown subcommand '\(argument)'; did you mean '\(suggestion)'?")
            }
            return CLIError("unexpected argument '\(argument)'; did you mean --stubs \(argument)?")
        }
        if let suggestion = FieldSuggestion.closest(to: name, among: valueOptions + flags) {
            return CLIError("unknown option '\(name)'; did you mean '\(suggestion)'?")
        }
        return CLIError("unknown option '\(name)'")
    }
}
