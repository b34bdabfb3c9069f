import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The options of `stubserver`, with their defaults.
public struct Options: Sendable, Equatable {
    /// The stubs directory (WireMock root dir layout). Default `Stubs`, so `swift run stubserver` in the
    /// repository serves the demo.
    public var stubs: String = "Stubs"
    /// The port to listen on; 0 asks the system for a free one. Default 8080.
    public var port: Int = 8080
    /// The address to listen on. Default `127.0.0.1`.
    public var host: String = "127.0.0.1"
    /// Log one line per request to stderr.
    public var verbose: Bool = false
    /// Reload the stubs when a file in the stubs directory changes.
    public var watch: Bool = false
    /// Print the dashboard's address after the listening lines and, on a Mac, open it (`--open`).
    public var openDashboard: Bool = false
    /// Milliseconds added to every response (`--global-delay`; WireMock's global `fixedDelay`). Default none.
    public var globalDelayMilliseconds: Int?
    /// A slow network for every response (`--network edge|3g|lte|wifi`). Default none.
    public var network: NetworkProfile?
    /// The most bytes per second of every response (`--bandwidth`). Default none.
    public var bytesPerSecond: Int?
    /// How much an unmatched request logs (`--log-unmatched full|line|none`). Default `full`.
    public var logUnmatched: UnmatchedRequestLogging = .full
    /// What the request journal keeps (`--journal-max-bytes`, `--max-request-journal-entries`,
    /// `--no-request-journal`).
    public var journal = RequestJournal.Limits()
    /// Every response is a template (`--global-response-templating`, as WireMock 2); otherwise only
    /// stubs with `"transformers": ["response-template"]` (`--local-response-templating`, the default).
    public var globalResponseTemplating: Bool = false
    /// A stub whose `bodyFileName` is missing from `__files` stops startup (`--strict`); otherwise it
    /// loads with a warning and answers 500 naming the file, as in WireMock.
    public var strictBodyFiles: Bool = false
    /// A stub using a request matcher stubserver does not implement loads with a warning and never
    /// matches (`--lenient`); otherwise it stops startup, naming file and field.
    public var lenientMatchers: Bool = false
    /// The token admin calls must present as `Authorization: Bearer TOKEN` (`--admin-token`,
    /// `STUBSERVER_ADMIN_TOKEN`). Default none.
    public var adminToken: String?
    /// Host names the admin API answers besides IP addresses, `localhost` and single-label names
    /// (`--allowed-host NAME`, repeatable). Default none.
    public var allowedHosts: [String] = []
    /// Virtual hosts, each served on a port of its own (`--host-alias NAME`, repeatable, lower-cased). Default none.
    public var virtualHosts: [String] = []
    /// Serve the admin API (`--no-admin` turns it off). Default `true`.
    public var adminAPIEnabled: Bool = true
    /// Where requests no stub matches are forwarded (`--proxy-all URL`). Default none: they get a 404.
    public var proxyAll: URL?
    /// The server as a forward proxy (`--proxy-unmatched`, `--proxy-allow-host`, `--proxy-connect-port`; `--ca-dir`
    /// is its certificate authority's folder too).
    public var forwardProxy = StubServer.Configuration.ForwardProxy()
    /// How long a forwarded request may take, in milliseconds (`--proxy-timeout`). Default 30000.
    public var proxyTimeoutMilliseconds: Int = 30_000
    /// How long SIGTERM/SIGINT let in-flight responses finish before their connections are closed
    /// (`--shutdown-grace SECONDS`). Default 5 s.
    public var shutdownGrace: Duration = .seconds(5)
    /// The most connections open at once (`--max-connections N`). Default 4096.
    public var maxConnections: Int = 4096
    /// The most isolated servers at once (`--max-servers N`, `POST /__admin/servers`). Default 16.
    public var maxServers: Int = 16
    /// The most steps and output bytes of one templated response (`--template-max-steps N`,
    /// `--template-max-output SIZE`). Default 1,000,000 steps and 16 MiB.
    public var templateLimits = TemplateLimits()
    /// The largest request body parsed as JSON for JSON matchers (`--max-json-match-body SIZE`). Default 4 MiB.
    public var jsonMatchBodyLimit: Int = 4 << 20
    /// The seed of templates' fake data (`--faker-seed N`). Default `nil`: random values.
    public var fakeDataSeed: UInt64?
    /// OpenAPI documents to answer from and check requests against (`--openapi FILE`, repeatable).
    public var openAPI: [String] = []
    /// What a request breaking its OpenAPI operation gets (`--openapi-validation reject|log|off`).
    public var openAPIValidation: OpenAPIValidation = .reject
    /// Where data collections are saved (`--data-dir DIR`); `nil`: in memory only.
    public var dataDirectory: String?
    /// The HTTPS port (`--https-port N`); `nil`: no HTTPS unless `--https-only`.
    public var httpsPort: Int?
    /// ``httpsPort`` as the integer option rows set it.
    var httpsPortValue: Int {
        get { httpsPort ?? 0 }
        set { httpsPort = newValue }
    }
    /// HTTPS only (`--https-only`), on `--https-port`, else on `--port`.
    public var httpsOnly: Bool = false
    /// The local certificate authority's folder (`--ca-dir DIR`); `nil`: the per-user default.
    public var caDirectory: String?
    /// The user's PEM certificate chain and key (`--https-cert FILE`, `--https-key FILE`).
    public var httpsCertificate: String?
    public var httpsKey: String?
    /// The user's PKCS#12 file and its password (`--https-pkcs12 FILE`, `--https-pkcs12-password PW`).
    public var httpsPKCS12: String?
    public var httpsPKCS12Password: String = ""

    public init() {}

    /// The server's HTTPS configuration from the `--https-…` options; `nil` without `--https-port` or
    /// `--https-only`.
    public var https: StubServer.Configuration.HTTPS? {
        guard httpsPort != nil || httpsOnly else { return nil }
        let certificate: StubServer.Configuration.HTTPS.Certificate =
            if let file = httpsPKCS12 {
                .pkcs12(URL(fileURLWithPath: file), password: httpsPKCS12Password)
            } else if let certificate = httpsCertificate, let key = httpsKey {
                .files(certificate: URL(fileURLWithPath: certificate), key: URL(fileURLWithPath: key))
            } else {
                .localAuthority(directory: caDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) })
            }
        return .init(port: httpsPort ?? port, only: httpsOnly, certificate: certificate)
    }

    /// Options that make sense only together: a certificate needs its key, one source of certificate, and HTTPS
    /// asked for at all.
    func checkHTTPS() throws(CLIError) {
        if (httpsCertificate == nil) != (httpsKey == nil) {
            throw CLIError("--https-cert and --https-key go together: give the certificate chain and its private key")
        }
        if httpsPKCS12 != nil && httpsCertificate != nil {
            throw CLIError("give either --https-pkcs12 or --https-cert with --https-key, not both")
        }
        if caDirectory != nil && (httpsPKCS12 != nil || httpsCertificate != nil) {
            throw CLIError("--ca-dir is for the local certificate authority, not used with your own certificate")
        }
        let certificateOption =
            httpsPKCS12 != nil
            ? "--https-pkcs12"
            : httpsCertificate != nil
                ? "--https-cert" : nil
        if let certificateOption, httpsPort == nil && !httpsOnly {
            throw CLIError("\(certificateOption) needs --https-port N (or --https-only) to serve HTTPS")
        }
    }
}

/// What the command line asks for.
public enum Command: Sendable, Equatable {
    /// Serve the stubs.
    case serve(Options)
    /// Print the usage text and exit 0.
    case help
    /// Print a subcommand's usage text and exit 0 (`stubserver help check`, `stubserver check --help`).
    case subcommandHelp(any Subcommand.Type)
    /// Print the version and exit 0.
    case version
    /// Run a subcommand (`stubserver check`, `stubserver match GET /hello`).
    case subcommand(any Subcommand)

    public static func == (lhs: Command, rhs: Command) -> Bool {
        switch (lhs, rhs) {
        case let (.serve(a), .serve(b)): a == b
        case (.help, .help), (.version, .version): true
        case let (.subcommandHelp(a), .subcommandHelp(b)): ObjectIdentifier(a) == ObjectIdentifier(b)
        case let (.subcommand(a), .subcommand(b)): a.isEqual(to: b)
        case (.serve, _), (.help, _), (.version, _), (.subcommandHelp, _), (.subcommand, _): false
        }
    }
}
