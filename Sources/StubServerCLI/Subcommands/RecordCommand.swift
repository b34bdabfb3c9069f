import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `stubserver record --target URL [--stubs DIR] [--port N] [--host ADDR] …`: a server that forwards
/// every request to the target and, on SIGINT, SIGTERM, SIGHUP or SIGQUIT, writes what it saw as stubs through
/// ``StubWriter`` (the naming, secret filtering and merging `import-har` uses).
public struct RecordCommand: Subcommand {
    public static let name = "record"
    public static let summary = "Forward every request to a real API and write what it answers as stubs."
    public static let usage = """
        USAGE: stubserver record --target URL [--stubs DIR] [--port N] [--host ADDR] [options]
               stubserver record --forward-proxy [--target URL] [--ca-dir DIR] [--stubs DIR] [options]

        Listens like the server (first line: Listening on http://HOST:PORT) and forwards every request
        to URL. Point the app at it and use it; stop with Ctrl-C (SIGINT), SIGTERM, SIGHUP or SIGQUIT
        (all alike). Then one stub per
        distinct request is written into DIR: the mapping in DIR/mappings/, the body in DIR/__files/, both
        named after the method and path (get-users-octocat.json). Existing files are never overwritten:
        a taken name gets -2, -3, ... JSON bodies are pretty-printed; other bodies are written byte for
        byte. Identical requests (method, URL, request body) become one stub, the first answer kept.
        Existing stubs in DIR are not served while recording: every request goes to URL.

        Secrets are left out and listed: the headers Authorization, Proxy-Authorization, Cookie,
        Set-Cookie and any whose name holds token, secret, api-key, apikey, password or session;
        token-like query parameters (access_token, token, key, api_key, client_secret, sig, code, ...),
        whose stubs then match the path and the other parameters.

        OPTIONS:
          --target URL    Where requests go: http or https, with an optional path prefix. Required
                          unless --forward-proxy.
          --forward-proxy Record as the client's HTTP proxy: a request sent to it as to a proxy (curl -x,
                          proxyConfigurations; https:// through CONNECT, its TLS ended with a certificate
                          from the local CA) goes to its own host, and its stub gets a host matcher and
                          a file named after the host. Other requests go to --target, if given.
          --ca-dir DIR    The local CA's folder, for --forward-proxy's tunnels. Default: the per-user one
          --stubs DIR     The stubs directory to write into (alias: --root-dir). Default: Stubs
          --port N        The port to listen on; 0 picks a free port. Default: 8080
          --host ADDR     The address to listen on (alias: --bind-address). Default: 127.0.0.1
        \(stubWritingUsage)
          --proxy-timeout MS
                          The longest wait for the target's answer (then 504). Default: 30000
          -h, --help      Print this help and exit.

        On stop it prints what was written, merged and left out; each file is created atomically. A
        closed stdout does not stop it (SIGPIPE is blocked). Exit codes: 0 stopped by any of those
        signals and the stubs written, 1 a file cannot be written, 2 usage error (also: a --target that
        is this recorder itself), 4 cannot listen.
        """

    public var target: URL?
    /// Record as a forward proxy (`--forward-proxy`): ``RecordingSpec/forwardProxy``.
    public var forwardProxy = false
    /// The local CA's folder (`--ca-dir`); `nil`: the per-user default.
    public var caDirectory: String?
    public var stubs: String = "Stubs"
    public var port: Int = 8080
    public var host: String = "127.0.0.1"
    public var captureHeaders: [String] = []
    public var recordSequences = false
    public var keptSecrets: [String] = []
    public var keepAllSecrets = false
    public var jsonAsReceived = false
    public var proxyTimeoutMilliseconds = 30_000

    public init(target: URL?) {
        self.target = target
    }

    public static func parse(_ arguments: [String]) throws(CLIError) -> RecordCommand {
        var target: URL?
        var command = RecordCommand(target: nil)
        var reader = ArgumentReader(arguments)
        let options = [
            "--target", "--stubs", "--root-dir", "--port", "--host", "--bind-address", "--capture-header",
            "--record-sequences", "--keep-secret", "--keep-all-secrets", "--json-as-received", "--proxy-timeout",
            "--forward-proxy", "--ca-dir"
        ]
        while let argument = reader.next() {
            if try command.readStubWritingFlag(argument, from: &reader) { continue }
            switch argument {
            case .option("--target"):
                let text = try reader.value(for: "--target")
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()),
                    url.host?.isEmpty == false
                else {
                    throw CLIError(
                        "--target expects an http:// or https:// URL such as https://api.github.com, got '\(text)'")
                }
                target = url
            case .option("--forward-proxy"):
                command.forwardProxy = true
            case .option("--ca-dir"):
                let text = try reader.value(for: "--ca-dir")
                if text.isEmpty { throw CLIError("--ca-dir needs a directory") }
                command.caDirectory = text
            case .option("--port"):
                command.port = try ServeOption.integer(reader.value(for: "--port"), for: "--port", in: 0...65535)
            case .option("--host"), .option("--bind-address"):
                command.host = try reader.value(for: "--host")
                if command.host.isEmpty { throw CLIError("--host needs an address, e.g. 127.0.0.1") }
            case .option("--proxy-timeout"):
                command.proxyTimeoutMilliseconds = try ServeOption.integer(
                    reader.value(for: "--proxy-timeout"), for: "--proxy-timeout", in: 1...3_600_000,
                    unit: "milliseconds")
            default:
                throw reader.unexpected(argument, options: options)
            }
        }
        guard target != nil || command.forwardProxy else {
            throw CLIError(
                "record needs --target URL (the API to forward to, e.g. https://api.github.com) or --forward-proxy")
        }
        guard ProxySettings.isForwardingAvailable else { throw CLIError("record: \(ProxySettings.unavailableReason)") }
        command.target = target
        return command
    }

    /// The recording from the flags: into ``stubs``, secrets filtered unless kept.
    var spec: RecordingSpec {
        var spec = RecordingSpec(
            target: target, writer: stubWriterOptions(listsUnrecordedSecretHeaders: true), persist: true,
            directory: URL(fileURLWithPath: stubs))
        spec.forwardProxy = forwardProxy
        return spec
    }
}

extension RecordCommand: StubWritingFlags {}
