import StubKit

/// The flags `record` and `import-har` share for how stubs are written: `--stubs DIR` (alias `--root-dir`),
/// `--capture-header NAME`, `--keep-secret NAME`, `--keep-all-secrets`, `--json-as-received` and
/// `--record-sequences`. One reader and one ``StubWriter/Options`` for both, so they spell and mean the same.
protocol StubWritingFlags {
    /// `--stubs DIR`: the stubs directory to write into.
    var stubs: String { get set }
    /// `--capture-header` values, as given.
    var captureHeaders: [String] { get set }
    /// `--keep-secret` values, as given.
    var keptSecrets: [String] { get set }
    /// `--keep-all-secrets`.
    var keepAllSecrets: Bool { get set }
    /// `--json-as-received`.
    var jsonAsReceived: Bool { get set }
    /// `--record-sequences`.
    var recordSequences: Bool { get set }
}

extension StubWritingFlags {
    /// The shared flags' lines of the `OPTIONS:` in both usage texts (after `--stubs` and the command's own).
    static var stubWritingUsage: String {
        """
          --capture-header NAME
                          Also match requests on this request header's value; repeat for more.
          --keep-secret NAME
                          Record this header or query parameter even though it looks secret; repeat.
          --keep-all-secrets
                          Record every header and query parameter, secrets included.
          --json-as-received
                          Write JSON bodies byte for byte instead of pretty-printed.
          --record-sequences
                          A request repeated with a different answer becomes a scenario answering each
                          in turn (states Started, 2, 3, ...; the last repeats), not one stub.
        """
    }

    /// Reads `argument` if it is one of the shared flags, its value (if it takes one) from `reader`.
    /// - Returns: `true` when it was one; `false`, with nothing read, for any other argument.
    /// - Throws: ``CLIError`` for a missing value, a value given to a flag that takes none, or an empty `--stubs`.
    mutating func readStubWritingFlag(
        _ argument: ArgumentReader.Argument,
        from reader: inout ArgumentReader
    ) throws(CLIError) -> Bool {
        switch argument {
        case .option("--stubs"), .option("--root-dir"):
            stubs = try reader.stubsDirectory()
        case .option("--capture-header"):
            captureHeaders.append(try reader.value(for: "--capture-header"))
        case .option("--keep-secret"):
            keptSecrets.append(try reader.value(for: "--keep-secret"))
        case .option("--keep-all-secrets"):
            try reader.noValue("--keep-all-secrets")
            keepAllSecrets = true
        case .option("--json-as-received"):
            try reader.noValue("--json-as-received")
            jsonAsReceived = true
        case .option("--record-sequences"):
            try reader.noValue("--record-sequences")
            recordSequences = true
        default:
            return false
        }
        return true
    }

    /// The writer's options from the flags: secrets filtered unless kept, JSON bodies pretty-printed unless
    /// received as they are, sequences recorded when asked.
    /// - Parameter listsUnrecordedSecretHeaders: See ``StubWriter/Options/listsUnrecordedSecretHeaders``.
    func stubWriterOptions(listsUnrecordedSecretHeaders: Bool = false) -> StubWriter.Options {
        var secrets = keepAllSecrets ? SecretFilter.none : SecretFilter.standard
        secrets.kept = Set(keptSecrets)
        return StubWriter.Options(
            secrets: secrets, captureHeaders: captureHeaders,
            jsonBodies: jsonAsReceived ? .asReceived : .prettyPrinted,
            recordsSequences: recordSequences,
            listsUnrecordedSecretHeaders: listsUnrecordedSecretHeaders)
    }
}
