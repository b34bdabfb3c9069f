import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `stubserver check [--stubs DIR] [--openapi FILE ...]`: loads a stubs directory as the server would and reports
/// every error, every warning and every stub that can never answer; with `--openapi`, checks each document, and
/// (when `--stubs` is given too) every stub against them: contract drift. Exit 0 when all is well, 1 for drift,
/// 3 (the server's bad-stubs exit) for errors.
public struct CheckCommand: Subcommand {
    public static let name = "check"
    public static let summary = "Validate a stubs directory: every error and warning, and stubs that never answer."
    public static let usage = """
        USAGE: stubserver check [--stubs DIR] [--openapi FILE ...] [--global-response-templating] [--lenient]
                                [--host-alias NAME ...]

        Loads DIR with the server's own loader and reports everything at once (the server stops at
        the first error): each invalid file or mapping as FILE: FIELD: MESSAGE (the first error of
        each mapping; fix it and check again for the next), each ignored field of a valid mapping,
        and each stub that can never answer because another one always wins (a higher or equal
        priority and a pattern provably at least as general; no guesses).

        OPTIONS:
          --stubs DIR     The stubs directory (alias: --root-dir). Default: Stubs
          --openapi FILE  Check an OpenAPI 3.0/3.1 document (YAML or JSON; repeatable) as the server
                          loads it. With --stubs too, check every stub against the documents: a stub
                          whose method and path no operation has, whose status its operation does not
                          list, or whose JSON body does not fit that response's schema is drift.
          --global-response-templating
                          Check every response as a template, as the server does with this flag.
          --lenient       Report a stub using a matcher stubserver does not implement as a warning
                          (it never matches), as the server does with this flag; otherwise an error.
          --host-alias NAME
                          Check mappings/NAME/ as the stubs of virtual host NAME (repeatable), as the
                          server loads them with this flag.
          -h, --help      Print this help and exit.

        Prints the report on stdout. Exit codes: 0 the server would load DIR (warnings allowed),
        1 drift from an OpenAPI document, 2 usage error, 3 errors found.
        """

    /// The stubs directory.
    public var stubs: String = "Stubs"
    /// Check every response as a template (`--global-response-templating`).
    public var globalResponseTemplating = false
    /// Unsupported matchers are warnings, as the server's `--lenient` loads them.
    public var lenientMatchers = false
    /// Virtual hosts whose `mappings/NAME/` folders are checked as theirs (`--host-alias`).
    public var virtualHosts: [String] = []
    /// OpenAPI documents to check, and to check the stubs against (`--openapi`, repeatable).
    public var openAPI: [String] = []
    /// Whether `--stubs` was given: with `--openapi` alone only the documents are checked.
    public var stubsGiven = false

    /// Creates a check of `stubs` loaded with the given server flags.
    public init(
        stubs: String = "Stubs", globalResponseTemplating: Bool = false, lenientMatchers: Bool = false,
        virtualHosts: [String] = []
    ) {
        self.stubs = stubs
        stubsGiven = stubs != "Stubs"
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
                command.stubsGiven = true
            case .option("--openapi"):
                let file = try reader.value(for: "--openapi")
                if file.isEmpty { throw CLIError("--openapi needs an OpenAPI document (YAML or JSON)") }
                command.openAPI.append(file)
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
                    options: [
                        "--stubs", "--root-dir", "--openapi", "--global-response-templating", "--lenient",
                        "--host-alias"
                    ])
            }
        }
        return command
    }

    public func run() -> ExitCode {
        guard openAPI.isEmpty else { return runOpenAPI() }
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

    /// `--openapi`: each document checked, then (with `--stubs`) the stubs against them.
    private func runOpenAPI() -> ExitCode {
        var documents: [OpenAPIDocument] = []
        var lines: [String] = []
        for file in openAPI {
            do {
                let document = try OpenAPIDocument.load(contentsOf: file)
                documents.append(document)
                let version = document.version == .v30 ? "3.0" : "3.1"
                let problems = document.exampleProblems
                lines += problems.map { "warning: \(file): an example does not fit its schema: \($0)" }
                lines.append(
                    "\(file): OK: OpenAPI \(version), \(Self.count(document.operations.count, "operation")), "
                        + Self.count(problems.count, "warning"))
            } catch {
                lines.append("error: \(error)")
            }
        }
        guard documents.count == openAPI.count else {
            StandardStreams.output(lines.joined(separator: "\n") + "\n")
            return .badStubs
        }
        guard stubsGiven else {
            StandardStreams.output(lines.joined(separator: "\n") + "\n")
            return .success
        }
        let check = StubsCheck(
            stubs: URL(fileURLWithPath: stubs),
            options: StubsLoadOptions(
                globalResponseTemplating: globalResponseTemplating, lenientMatchers: lenientMatchers,
                virtualHosts: virtualHosts))
        guard check.isValid else {
            StandardStreams.output(lines.joined(separator: "\n") + "\n" + Self.report(check))
            return .badStubs
        }
        let (drift, fitting, unchecked) = Self.drift(of: check.mappings, against: documents)
        lines += drift.map { "drift: \($0)" }
        lines += unchecked.map { "note: \($0)" }
        let verdict = drift.isEmpty ? "OK" : "DRIFT"
        lines.append(
            "\(check.directory) against \(openAPI.joined(separator: ", ")): \(verdict): "
                + "\(Self.count(fitting, "stub")) fit, \(Self.count(drift.count, "drift finding")), "
                + "\(unchecked.count) not checked")
        StandardStreams.output(lines.joined(separator: "\n") + "\n")
        return drift.isEmpty ? .success : .failure
    }

    /// Each stub against the first document that has its operation (or, when none has, against the first).
    static func drift(of stubs: [StubMapping], against documents: [OpenAPIDocument])
        -> (drift: [OpenAPIDrift], fitting: Int, unchecked: [OpenAPIDrift])
    {
        var drift: [OpenAPIDrift] = [], unchecked: [OpenAPIDrift] = [], fitting = 0
        for stub in stubs {
            let reports = documents.map { $0.drift(of: [stub]) }
            if let fit = reports.first(where: { $0.fitting > 0 }) {
                fitting += fit.fitting
            } else if let unknown = reports.first(where: { !$0.unchecked.isEmpty }) {
                unchecked += unknown.unchecked
            } else {
                // The finding of the document that has the operation (its complaint is not "not in the document").
                let defined = reports.first { $0.drift.contains { !$0.message.contains(" is not in ") } }
                drift += (defined ?? reports[0]).drift
            }
        }
        return (drift, fitting, unchecked)
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        n == 1 ? "1 \(noun)" : "\(n) \(noun)s"
    }
}
