import StubKit

/// `stubserver import-har FILE [--stubs DIR] [--host HOST]...`: turns a HAR capture into stub files
/// through ``StubWriter`` (the naming, secret filtering and merging `stubserver record` uses).
public struct ImportHARCommand: Subcommand {
    public static let name = "import-har"
    public static let summary = "Write stubs from a HAR capture (Safari, Chrome, Charles, Proxyman exports)."
    public static let usage = """
        USAGE: stubserver import-har FILE [--stubs DIR] [--host HOST]... [options]

        Reads FILE, a HAR 1.2 capture (Safari or Chrome Web Inspector: Network > Export HAR; Charles:
        File > Export Session > HTTP Archive; Proxyman: Export > HAR), and writes one stub per distinct
        request into DIR: the mapping in DIR/mappings/, the body in DIR/__files/, both named after the
        method and path (get-users-octocat.json). Existing files are never overwritten: a taken name
        gets -2, -3, ... JSON bodies are pretty-printed; other bodies are written byte for byte.
        Identical requests (method, URL, request body) become one stub, the first answer kept.

        Secrets are left out and listed: the headers Authorization, Proxy-Authorization, Cookie,
        Set-Cookie and any whose name holds token, secret, api-key, apikey, password or session;
        token-like query parameters (access_token, token, key, api_key, client_secret, sig, code, ...),
        whose stubs then match the path and the other parameters; request bodies with such a field
        are not matched on. Entries without a response (status 0) are skipped and listed.

        ARGUMENTS:
          FILE            The HAR file.

        OPTIONS:
          --stubs DIR     The stubs directory to write into (alias: --root-dir). Default: Stubs
          --host HOST     Import only requests to HOST (api.github.com, or HOST:PORT); repeat for more.
                          Default: every host (paths from different hosts share one folder).
        \(stubWritingUsage)
          -h, --help      Print this help and exit.

        Prints what was written, merged, left out and skipped. Exit codes: 0 done, 1 the file cannot
        be read or is not valid HAR (the message names the entry and field) or a file cannot be
        written, 2 usage error.
        """

    public var file: String
    public var stubs: String = "Stubs"
    /// `--host` values, as given.
    public var hosts: [String] = []
    public var captureHeaders: [String] = []
    public var keptSecrets: [String] = []
    public var keepAllSecrets = false
    public var jsonAsReceived = false
    public var recordSequences = false

    public init(
        file: String, stubs: String = "Stubs", hosts: [String] = [], captureHeaders: [String] = [],
        keptSecrets: [String] = [], keepAllSecrets: Bool = false, jsonAsReceived: Bool = false,
        recordSequences: Bool = false
    ) {
        self.file = file
        self.stubs = stubs
        self.hosts = hosts
        self.captureHeaders = captureHeaders
        self.keptSecrets = keptSecrets
        self.keepAllSecrets = keepAllSecrets
        self.jsonAsReceived = jsonAsReceived
        self.recordSequences = recordSequences
    }

    public static func parse(_ arguments: [String]) throws(CLIError) -> ImportHARCommand {
        var command = ImportHARCommand(file: "")
        var files: [String] = []
        var reader = ArgumentReader(arguments)
        let options = [
            "--stubs", "--root-dir", "--host", "--capture-header", "--keep-secret", "--keep-all-secrets",
            "--json-as-received", "--record-sequences"
        ]
        while let argument = reader.next() {
            if try command.readStubWritingFlag(argument, from: &reader) { continue }
            switch argument {
            case .option("--host"):
                let host = try reader.value(for: "--host")
                if host.isEmpty || host.contains("/") {
                    throw CLIError("--host takes a host name such as api.github.com (or HOST:PORT), not '\(host)'")
                }
                command.hosts.append(host)
            case .positional(let word):
                files.append(word)
            default:
                throw reader.unexpected(argument, options: options)
            }
        }
        guard let file = files.first, !file.isEmpty else { throw CLIError("import-har needs a HAR file") }
        guard files.count == 1 else { throw CLIError("import-har takes one HAR file, got \(files.count)") }
        command.file = file
        return command
    }

    /// The writer's options from the flags.
    var writerOptions: StubWriter.Options { stubWriterOptions() }
}

extension ImportHARCommand: StubWritingFlags {}
