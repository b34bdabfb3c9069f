/// A `stubserver NAME …` subcommand (`check`, `match`, …): a pure parse of the arguments after its
/// name into a value, then a run that prints and returns the exit code.
///
/// Adding one takes two steps: a type conforming to this protocol in `Subcommands/NameCommand.swift`,
/// and that type in ``Subcommands/all``. The rest follows from the declaration: `stubserver --help`
/// lists ``name`` and ``summary``; `stubserver help NAME` and `stubserver NAME --help` print ``usage``;
/// a ``CLIError`` thrown by ``parse(_:)`` prints `Error: …` and ``usage`` on stderr and exits 2.
///
/// ```swift
/// struct HealthCommand: Subcommand {
///     static let name = "health"
///     static let summary = "Exit 0 when a stubserver answers GET /__admin/health."
///     static let usage = "USAGE: stubserver health [--url URL]\n…"
///     var url = "http://127.0.0.1:8080"
///
///     static func parse(_ arguments: [String]) throws(CLIError) -> HealthCommand {
///         var command = HealthCommand()
///         var reader = ArgumentReader(arguments)
///         while let argument = reader.next() {
///             switch argument {
///             case .option("--url"): command.url = try reader.value(for: "--url")
///             default: throw reader.unexpected(argument, options: ["--url"])
///             }
///         }
///         return command
///     }
///
///     func run() -> ExitCode { … }
/// }
/// ```
public protocol Subcommand: Sendable, Equatable {
    /// The word after `stubserver`, e.g. `check`.
    static var name: String { get }
    /// One line for the subcommand list of `stubserver --help`.
    static var summary: String { get }
    /// The whole help text, starting `USAGE: stubserver NAME`, ending without a newline.
    static var usage: String { get }
    /// Parses the arguments after the name. Pure: no I/O. `--help`/`-h` never reach it.
    /// - Throws: ``CLIError`` naming the offending argument.
    static func parse(_ arguments: [String]) throws(CLIError) -> Self
    /// Does the work, printing to stdout (results) and stderr (diagnostics).
    /// - Returns: the process exit code.
    func run() -> ExitCode
}

/// The registry of subcommands, in the order `stubserver --help` lists them.
public enum Subcommands {
    /// Every subcommand. Add new ones here.
    public static let all: [any Subcommand.Type] = [
        CheckCommand.self,
        MatchCommand.self,
        HealthCommand.self,
        ImportHARCommand.self,
        RecordCommand.self,
        CACommand.self
    ]

    /// The subcommand called `name`, if any.
    public static func named(_ name: String) -> (any Subcommand.Type)? {
        all.first { $0.name == name }
    }

    /// The `SUBCOMMANDS:` section of the main usage text.
    static var listing: String {
        let width = (all.map { $0.name.count }.max() ?? 0) + 2
        let lines = all.map { type in
            "  " + type.name + String(repeating: " ", count: width - type.name.count) + type.summary
        }
        return "SUBCOMMANDS:\n" + lines.joined(separator: "\n")
            + "\n\n  See `stubserver help SUBCOMMAND` for a subcommand's options."
    }
}

extension Subcommand {
    /// Whether `other` is the same subcommand with the same arguments (``Command``'s equality).
    func isEqual(to other: any Subcommand) -> Bool {
        (other as? Self) == self
    }
}
