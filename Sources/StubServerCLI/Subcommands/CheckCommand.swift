import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `stubserver check [--stubs DIR]`: loads a stubs directory as the server would and reports every
/// error, every warning and every stub that can never answer. Exit 0 when the server would load it,
/// 3 (the server's bad-stubs exit) when it would not.
public struct CheckCommand: Subcommand {
    public static let name = "check"
    public static let summary = "Validate a stubs directory: every error and warning, and stubs that never answer."
    public static let usage = """
        USAGE: stubserver check [--stubs DIR] [--global-response-templating] [--lenient] [--host-alias NAME ...]

        Loads DIR with the server's own loader and reports everything at once (the server stops at
        the first error): each invalid file or mapping as FILE: FIELD: MESSAGE (the first error of
        each mapping; fix it and check again for the next), each ignored field of a valid mapping,
        and each stub that can never answer because another one always wins (a higher or equal
        priority and a pattern provably at least as general; no guesses).

        OPTIONS:
          --stubs DIR     The stubs directory (alias: --root-dir). Default: Stubs
          --global-response-templating
                          Check every response as a template, as the server does with this flag.
          --lenient       Report a stub using a matcher stubserver does not implement as a warning
                          (it never matches), as the server does with this flag; otherwise an error.
          --host-alias NAME
                          Check mappings/NAME/ as the stubs of virtual host NAME (repeatable), as the
                          server loads them with this flag.
          -h, --help      Print this help and exit.

        Prints the report on stdout. Exit codes: 0 the server would load DIR (warnings allowed),
        2 usage error, 3 errors found.
        """

    /// The stubs directory.
    public var stubs: String = "Stubs"
    /// Check every response as a template (`--global-response-templating`).
    public var globalResponseTemplating = false
    /// Unsupported matchers are warnings, as the server's `--lenient` loads them.
    public var lenientMatchers = false
    /// Virtual hosts whose `mappings/NAME/` folders are checked as theirs (`--host-alias`).
    public var virtualHosts: [String] = []

    /// Creates a check of `stubs` loaded with the given server flags.
    public init(
        stubs: String = "Stubs", globalResponseTemplating: Bool = false, lenientMatchers: Bool = false,
        virtualHosts: [String] = []
    ) {
        self.stubs = stubs
        self.globalResponseTemplating = globalResponseTemplating
        self.lenientMatchers = lenientMatchers
        self.virtualHosts = virtualHosts
    }

    public static func parse(_ arguments: [String]) throws(CLIError) -> CheckCommand {
        var command = CheckCommand()
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case .option("--stubs"), .option("--root-dir"):
                command.stubs = try reader.stubsDirectory()
            case .option("--global-response-templating"):
                try reader.noValue("--global-response-templating")
                command.globalResponseTemplating = true
            case .option("--lenient"):
                try reader.noValue("--lenient")
                command.lenientMatchers = true
            case .option("--host-alias"):
                let name = try reader.value(for: "--host-alias")
                if let problem = StubServer.virtualHostNameProblem(name) {
                    throw CLIError("--host-alias '\(name)': \(problem)")
                }
                command.virtualHosts.append(name.lowercased())
            default:
                throw reader.unexpected(
                    argument,
                    options: ["--stubs", "--root-dir", "--global-response-templating", "--lenient", "--host-alias"])
            }
        }
        return command
    }

    public func run() -> ExitCode {
        let check = StubsCheck(
            stubs: URL(fileURLWithPath: stubs),
            options: StubsLoadOptions(
                globalResponseTemplating: globalResponseTemplating, lenientMatchers: lenientMatchers,
                virtualHosts: virtualHosts))
        StandardStreams.output(Self.report(check))
        return check.isValid ? .success : .badStubs
    }

    /// The report: the note, errors, warnings, stubs that never answer, then a summary line.
    static func report(_ check: StubsCheck) -> String {
        var lines: [String] = []
        if let note = check.note { lines.append(note) }
        lines += check.errors.map { "error: \($0)" }
        lines += check.warnings
        lines += check.shadowed.map { "warning: \($0.description)" }
        let warnings = check.warnings.count + check.shadowed.count
        let summary = [
            stubCount(check.mappings.count) + (check.isValid ? "" : " valid"),
            count(check.errors.count, "error"),
            count(warnings, "warning")
        ]
        let verdict = check.isValid ? "OK" : "FAILED"
        lines.append("\(check.directory): \(verdict): " + summary.joined(separator: ", "))
        return lines.joined(separator: "\n") + "\n"
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        n == 1 ? "1 \(noun)" : "\(n) \(noun)s"
    }
}
