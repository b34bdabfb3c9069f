/// Options read from the environment variable `STUBSERVER_OPTIONS`, for containers and CI services where
/// the command line is fixed (an image's `ENTRYPOINT`, a CI `services:` entry that takes only `env`).
///
/// They are read after the command-line arguments, as WireMock's image does with `WIREMOCK_OPTIONS`, so
/// an option in the variable wins over the same option on the command line:
///
/// ```sh
/// docker run -e STUBSERVER_OPTIONS="--port 9090 --verbose" … stubserver   # serves on 9090
/// ```
///
/// Only serving reads them: `stubserver SUBCOMMAND …`, `--help` and `--version` ignore the variable.
public enum OptionsEnvironment {
    /// The variable's name.
    public static let name = "STUBSERVER_OPTIONS"

    /// The words of `text`, split as a POSIX shell splits a simple command line: on blanks, with
    /// `'single'` and `"double"` quotes and backslash escapes; no expansion (`$`, `*`, `~` stay as they are).
    /// - Throws: ``CLIError`` for an unterminated quote or a trailing backslash.
    public static func words(_ text: String) throws(CLIError) -> [String] {
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
        if let quote { throw CLIError("\(name): unterminated \(quote) quote in '\(text)'") }
        if escaped { throw CLIError("\(name): a backslash ends '\(text)'") }
        if inWord { words.append(current) }
        return words
    }

    /// The arguments to parse: `arguments`, then the words of `environment[name]` when the arguments serve
    /// (no subcommand first).
    /// - Throws: ``CLIError`` when the variable cannot be split.
    public static func arguments(_ arguments: [String], environment: [String: String]) throws(CLIError) -> [String] {
        guard let text = environment[name], arguments.first.map({ $0.hasPrefix("-") }) ?? true else {
            return arguments
        }
        return arguments + (try words(text))
    }
}
