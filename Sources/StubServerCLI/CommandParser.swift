import StubKit

/// Parses `stubserver`'s arguments into a ``Command``. Pure: no I/O, so every case is unit-tested.
///
/// ```swift
/// let command = try CommandParser.parse(["--stubs", "Stubs", "--port", "0"])
/// ```
public enum CommandParser {
    private static let valueOptions = ["--stubs", "--root-dir", "--port", "--host"]
    private static let flags = ["--verbose", "--watch", "--version", "--help", "-h"]

    /// Parses the arguments after the program name.
    /// - Throws: ``CLIError`` naming the offending argument.
    public static func parse(_ arguments: [String]) throws(CLIError) -> Command {
        var options = Options()
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
            case "--stubs", "--root-dir":
                options.stubs = try value(for: name, inlineValue, &remaining)
                if options.stubs.isEmpty { throw CLIError("\(name) needs a directory") }
            case "--host":
                options.host = try value(for: name, inlineValue, &remaining)
                if options.host.isEmpty { throw CLIError("--host needs an address, e.g. 127.0.0.1") }
            case "--port":
                let text = try value(for: name, inlineValue, &remaining)
                guard let port = Int(text), (0...65535).contains(port) else {
                    throw CLIError("--port expects a number from 0 to 65535, got '\(text)'")
                }
                options.port = port
            default:
                throw unknown(argument: argument, name: name)
            }
        }
        return wantsVersion ? .version : .serve(options)
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
            return CLIError("unexpected argument '\(argument)'; did you mean --stubs \(argument)?")
        }
        if let suggestion = FieldSuggestion.closest(to: name, among: valueOptions + flags) {
            return CLIError("unknown option '\(name)'; did you mean '\(suggestion)'?")
        }
        return CLIError("unknown option '\(name)'")
    }
}
