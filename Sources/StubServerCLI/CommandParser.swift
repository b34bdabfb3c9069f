import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Parses `stubserver`'s arguments into a ``Command``. Pure: no I/O, so every case is unit-tested.
///
/// ```swift
/// let command = try CommandParser.parse(["--stubs", "Stubs", "--port", "0"])
/// ```
public enum CommandParser {
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
        // The options are declared once, in ServeOption.all: parsing, suggestions and the usage text.
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            // An empty word is no argument: WireMock's Testcontainers modules for Go and Java pass the command `""`
            // (`["", "--disable-banner"]`), and WireMock ignores it too. An option's empty value is still read.
            if case .positional("") = argument { continue }
            guard case .option(let name) = argument, let option = ServeOption.named[name] else {
                throw unknown(argument)
            }
            switch option.action {
            case .help:
                return .help
            case .version:
                wantsVersion = true
            case .set:
                if option.value == nil {
                    try reader.noValue(name)
                    try option.apply("", to: &options, as: name)
                } else {
                    try option.apply(try reader.value(for: name), to: &options, as: name)
                }
            }
        }
        if !wantsVersion { try options.checkHTTPS() }
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

    private static func unknown(_ argument: ArgumentReader.Argument) -> CLIError {
        switch argument {
        case .positional(let word):
            if let suggestion = FieldSuggestion.closest(to: word, among: Subcommands.all.map { $0.name } + ["help"]) {
                return CLIError("unknown subcommand '\(word)'; did you mean '\(suggestion)'?")
            }
            return CLIError("unexpected argument '\(word)'; did you mean --stubs \(word)?")
        case .option(let name):
            if let refusal = WireMockOption.refusal(name) { return CLIError(refusal) }
            if let suggestion = FieldSuggestion.closest(to: name, among: ServeOption.allNames) {
                return CLIError("unknown option '\(name)'; did you mean '\(suggestion)'?")
            }
            return CLIError("unknown option '\(name)'")
        }
    }
}
