import StubKit

/// Reads a subcommand's arguments in order: options (`--name value`, `--name=value`, `-x value`),
/// flags and positional arguments; `--` ends the options. The same spellings as the server's options.
///
/// ```swift
/// var reader = ArgumentReader(["--stubs", "Stubs", "GET", "/hello"])
/// while let argument = reader.next() {
///     switch argument {
///     case .option("--stubs"): stubs = try reader.value(for: "--stubs")
///     case .positional(let word): words.append(word)
///     default: throw reader.unexpected(argument, options: ["--stubs"])
///     }
/// }
/// ```
public struct ArgumentReader: Sendable {
    /// One argument as read.
    public enum Argument: Sendable, Equatable {
        /// `--name`, `--name=…` (the value is read with ``ArgumentReader/value(for:)``) or `-x`.
        case option(String)
        /// Anything else, and everything after `--`.
        case positional(String)
    }

    private var remaining: ArraySlice<String>
    private var inlineValue: String?
    private var optionsEnded = false

    public init(_ arguments: [String]) {
        remaining = arguments[...]
    }

    /// The next argument, or `nil` at the end.
    /// - Note: after an option that takes no value, call ``noValue(_:)`` to refuse `--flag=value`.
    public mutating func next() -> Argument? {
        inlineValue = nil
        guard let argument = remaining.popFirst() else { return nil }
        if optionsEnded { return .positional(argument) }
        if argument == "--" {
            optionsEnded = true
            return next()
        }
        if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
            inlineValue = String(argument[argument.index(after: eq)...])
            return .option(String(argument[..<eq]))
        }
        // A lone `-` and negative numbers are values, not options.
        if argument.hasPrefix("-"), argument.count > 1, !(argument.dropFirst().first?.isNumber ?? false) {
            return .option(argument)
        }
        return .positional(argument)
    }

    /// The value of the option just read: its `=value`, or the next argument.
    /// - Throws: ``CLIError`` `NAME needs a value` at the end or before another `--option`.
    public mutating func value(for name: String) throws(CLIError) -> String {
        if let inline = inlineValue {
            inlineValue = nil
            return inline
        }
        guard let next = remaining.first, !next.hasPrefix("--") else {
            throw CLIError("\(name) needs a value")
        }
        remaining.removeFirst()
        return next
    }

    /// The value of `--stubs` (or `--root-dir`) just read: a directory, not empty.
    /// - Throws: ``CLIError`` when it is missing or empty.
    public mutating func stubsDirectory() throws(CLIError) -> String {
        let stubs = try value(for: "--stubs")
        if stubs.isEmpty { throw CLIError("--stubs needs a directory") }
        return stubs
    }

    /// Refuses `--flag=value` for the flag just read.
    public mutating func noValue(_ name: String) throws(CLIError) {
        if inlineValue != nil { throw CLIError("\(name) takes no value") }
    }

    /// The error for an argument the subcommand does not take, with a suggestion for a misspelt option.
    public func unexpected(_ argument: Argument, options: [String]) -> CLIError {
        switch argument {
        case .positional(let word):
            return CLIError("unexpected argument '\(word)'")
        case .option(let name):
            if let suggestion = FieldSuggestion.closest(to: name, among: options) {
                return CLIError("unknown option '\(name)'; did you mean '\(suggestion)'?")
            }
            return CLIError("unknown option '\(name)'")
        }
    }
}
