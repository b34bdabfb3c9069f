/// Options read from the environment variables `WIREMOCK_OPTIONS` (as WireMock's image reads it, so a compose
/// file written for WireMock works unchanged) and `STUBSERVER_OPTIONS`, for containers and CI services where
/// the command line is fixed (an image's `ENTRYPOINT`, a CI `services:` entry that takes only `env`).
///
/// They are read after the command-line arguments, `STUBSERVER_OPTIONS` last, so an option in a variable wins
/// over the same option on the command line:
///
/// ```sh
/// docker run -e STUBSERVER_OPTIONS="--port 9090 --verbose" … stubserver   # serves on 9090
/// ```
///
/// Only serving reads them: `stubserver SUBCOMMAND …`, `--help` and `--version` ignore the variables.
public enum OptionsEnvironment {
    /// The variable's name.
    public static let name = "STUBSERVER_OPTIONS"
    /// WireMock's image's variable, read before ``name``.
    public static let wireMockName = "WIREMOCK_OPTIONS"
    /// The variables, in the order they are read.
    static let names = [wireMockName, name]

    /// The words of `text`, split as a POSIX shell splits a simple command line: on blanks, with
    /// `'single'` and `"double"` quotes and backslash escapes; no expansion (`$`, `*`, `~` stay as they are).
    /// - Parameter variable: the variable `text` comes from, named in errors.
    /// - Throws: ``CLIError`` for an unterminated quote or a trailing backslash.
    public static func words(_ text: String, variable: String = name) throws(CLIError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                // Inside double quotes a backslash escapes only ", \, $ and `, as in sh.
                if quote == "\"", !"\"\\$`".contains(character) { current.append("\\") }
                current.append(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case ("'", _):
                current.append(character)
            case (_, "\\"):
                escaped = true
                inWord = true
            case ("\"", _):
                current.append(character)
            case (nil, "'"), (nil, "\""):
                quote = character
                inWord = true
            case (nil, " "), (nil, "\t"), (nil, "\n"), (nil, "\r"):
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(character)
                inWord = true
            }
        }
        if let quote { throw CLIError("\(variable): unterminated \(quote) quote in '\(text)'") }
        if escaped { throw CLIError("\(variable): a backslash ends '\(text)'") }
        if inWord { words.append(current) }
        return words
    }

    /// The arguments to parse: `arguments`, then the words of each variable set in `environment` when the
    /// arguments serve (no subcommand first; empty words, which the parser skips, do not count).
    /// - Throws: ``CLIError`` when a variable cannot be split.
    public static func arguments(_ arguments: [String], environment: [String: String]) throws(CLIError) -> [String] {
        guard arguments.first(where: { !$0.isEmpty }).map({ $0.hasPrefix("-") }) ?? true else { return arguments }
        var all = arguments
        for variable in names {
            if let text = environment[variable] { all += try words(text, variable: variable) }
        }
        return all
    }

    /// The variables set in `environment` and their values, for error messages: `` (WIREMOCK_OPTIONS='…')``.
    static func shown(in environment: [String: String]) -> String {
        let set = names.compactMap { variable in environment[variable].map { "\(variable)='\($0)'" } }
        return set.isEmpty ? "" : " (arguments and \(set.joined(separator: " and ")))"
    }
}
