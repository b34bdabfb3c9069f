import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One option of `stubserver` when it serves: its spellings, the value it takes, its help, and what it
/// sets. The table, ``all``, is the one place an option is declared: ``CommandParser`` parses with it,
/// suggests from it for a misspelling, and ``usageText`` is written from it.
///
/// ```swift
/// ServeOption("--stubs", value: "DIR", help: "The stubs directory. Default: Stubs") { options, text, name in
///     if text.isEmpty { throw CLIError("\(name) needs a directory") }
///     options.stubs = text
/// }
/// ServeOption("--port", value: "N", help: "The port to listen on. Default: 8080", integer: \.port, in: 0...65535)
/// ```
struct ServeOption: Sendable {
    /// What reading the option does.
    enum Action: Sendable {
        /// Sets `Options` from the value (`""` for a flag) and the spelling used (for messages); throws a
        /// ``CLIError`` (closures cannot declare a typed throw here, so ``apply(_:to:as:)`` narrows it).
        case set(@Sendable (inout Options, _ value: String, _ name: String) throws -> Void)
        /// `--help`: print the usage.
        case help
        /// `--version`: print the version.
        case version
    }

    /// The spellings, the first one shown (`--stubs`, then its alias `--root-dir`).
    let names: [String]
    /// The value's name in the usage (`DIR`, `N`), or `nil` for a flag.
    let value: String?
    /// The help text, one string per line.
    let help: [String]
    let action: Action

    init(
        _ names: String..., value: String? = nil, help: String...,
        set: @escaping @Sendable (inout Options, _ value: String, _ name: String) throws -> Void
    ) {
        self.names = names
        self.value = value
        self.help = help
        action = .set(set)
    }

    /// An option whose value is a whole number in `range` (`unit` names it in the error), stored at `field`.
    init(
        _ name: String, value: String, help: String..., integer field: WritableKeyPath<Options, Int> & Sendable,
        in range: ClosedRange<Int>, unit: String = "a number"
    ) {
        names = [name]
        self.value = value
        self.help = help
        action = .set { options, text, name in
            options[keyPath: field] = try Self.integer(text, for: name, in: range, unit: unit)
        }
    }

    /// An option whose value is a size in bytes of at least `minimum` (``size(_:for:example:minimum:)``), stored
    /// at `field`.
    init(
        _ name: String, value: String, help: String..., size field: WritableKeyPath<Options, Int> & Sendable,
        example: String, minimum: Int = 1
    ) {
        names = [name]
        self.value = value
        self.help = help
        action = .set { options, text, name in
            options[keyPath: field] = try Self.size(text, for: name, example: example, minimum: minimum)
        }
    }

    private init(_ names: [String], help: String, action: Action) {
        self.names = names
        value = nil
        self.help = [help]
        self.action = action
    }

    /// Applies the option's value `text`, read as spelling `name`, to `options`.
    func apply(_ text: String, to options: inout Options, as name: String) throws(CLIError) {
        guard case .set(let set) = action else { return }
        do {
            try set(&options, text, name)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("\(name): \(error)")
        }
    }

    /// The options by spelling.
    static let named: [String: ServeOption] = {
        var named: [String: ServeOption] = [:]
        for option in all {
            for name in option.names { named[name] = option }
        }
        return named
    }()

    /// Every spelling, for suggestions.
    static let allNames: [String] = all.flatMap(\.names)

    /// `text` as an integer in `range`, else an error naming the option, the range and the text.
    static func integer(_ text: String, for name: String, in range: ClosedRange<Int>, unit: String = "a number")
        throws(CLIError) -> Int
    {
        guard let number = Int(text), range.contains(number) else {
            throw CLIError("\(name) expects \(unit) from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// `text` as a size (`67108864`, `64MiB`, `512KiB`) of at least `minimum` bytes, else an error naming the
    /// option and an example.
    static func size(_ text: String, for name: String, example: String, minimum: Int = 1) throws(CLIError) -> Int {
        guard let bytes = ByteCount.parse(text), bytes >= minimum else {
            throw CLIError("\(name) expects a size in bytes such as \(example), got '\(text)'")
        }
        return bytes
    }
}

extension ServeOption {
    /// Every serving option, in the order of the usage text.
    static let all: [ServeOption] = [
        ServeOption(
            "--stubs", "--root-dir", value: "DIR", help: "The stubs directory (alias: --root-dir). Default: Stubs"
        ) { options, text, name in
            if text.isEmpty { throw CLIError("\(name) needs a directory") }
            options.stubs = text
        },
        ServeOption(
            "--port", value: "N", help: "The port to listen on; 0 picks a free port. Default: 8080", integer: \.port,
            in: 0...65535),
        ServeOption(
            "--host", "--bind-address", value: "ADDR",
            help: "The address to listen on (e.g. 127.0.0.1, ::1, 0.0.0.0; alias: --bind-address).",
            "Default: 127.0.0.1"
        ) { options, text, name in
            if text.isEmpty { throw CLIError("\(name) needs an address, e.g. 127.0.0.1") }
            options.host = text
        },
        ServeOption("--verbose", help: "Log one line per request to stderr.") { options, _, _ in options.verbose = true
        },
        ServeOption(
            "--open", help: "Print the dashboard's address (/__admin/dashboard: requests live, stubs, scenarios)",
            "after the listening lines and, on a Mac, open it in the default browser."
        ) { options, _, _ in
            options.openDashboard = true
        },
        ServeOption("--watch", help: "Reload the stubs when a file changes; a bad edit keeps the last good routes.") {
            options, _, _ in
            options.watch = true
        },
        ServeOption(
            "--global-delay", value: "MS",
            help: "Delay every response by MS milliseconds (as POST /__admin/settings fixedDelay)."
        ) { options, text, name in
            options.globalDelayMilliseconds = try integer(text, for: name, in: 0...3_600_000, unit: "milliseconds")
        },
        ServeOption(
            "--network", value: "NAME", help: "Simulate a slow network for every response: edge, 3g, lte or wifi",
            "(latency and bandwidth of Apple's Network Link Conditioner presets)."
        ) { options, text, name in
            guard let profile = NetworkProfile(named: text) else {
                throw CLIError(
                    "--network expects one of \(NetworkProfile.named.map(\.name).joined(separator: ", ")), got '\(text)'"
                )
            }
            options.network = profile
        },
        ServeOption("--bandwidth", value: "BYTES", help: "Send every response at most BYTES bytes per second.") {
            options, text, name in
            guard let rate = Int(text), rate > 0 else {
                throw CLIError("--bandwidth expects bytes per second (a number above 0), got '\(text)'")
            }
            options.bytesPerSecond = rate
        },
        ServeOption(
            "--log-unmatched", value: "full|line|none",
            help: "What an unmatched request logs: its near-miss report (repeats of the same",
            "request within a minute as one line), one line, or nothing. Default: full"
        ) { options, text, name in
            guard let mode = UnmatchedRequestLogging(rawValue: text) else {
                throw CLIError("--log-unmatched expects full, line or none, got '\(text)'")
            }
            options.logUnmatched = mode
        },
        ServeOption(
            "--journal-max-bytes", value: "SIZE",
            help: "The most memory the request journal keeps (e.g. 64MiB); oldest entries go",
            "first. Bodies over 1 MiB are kept cut. Default: 64MiB",
            size: \.journal.maxBytes, example: "67108864, 64MiB or 512KiB", minimum: 0),
        ServeOption(
            "--max-request-journal-entries", value: "N", help: "The most requests the journal keeps. Default: 10000"
        ) { options, text, name in
            guard let entries = Int(text), entries >= 1 else {
                throw CLIError("--max-request-journal-entries expects a number of at least 1, got '\(text)'")
            }
            options.journal.maxEntries = entries
        },
        ServeOption("--no-request-journal", help: "Keep no journal (for load tests); /__admin/requests says so.") {
            options, _, _ in
            options.journal.isEnabled = false
        },
        ServeOption(
            "--global-response-templating",
            help: "Render every response as a Handlebars template, not only stubs with",
            "\"transformers\": [\"response-template\"] (--local-response-templating, the default)."
        ) { options, _, _ in
            options.globalResponseTemplating = true
        },
        // WireMock 2's flag for the default: only stubs that ask for "response-template".
        ServeOption(
            "--local-response-templating",
            help: "Only stubs with \"transformers\": [\"response-template\"] are templates (the default)."
        ) { options, _, _ in
            options.globalResponseTemplating = false
        },
        ServeOption(
            "--strict",
            help: "Refuse to start when a stub's bodyFileName is missing from __files (as `stubserver check`",
            "reports it). Default: such a stub loads with a warning and answers 500 naming the file."
        ) { options, _, _ in
            options.strictBodyFiles = true
        },
        ServeOption(
            "--lenient",
            help: "Load a stub that uses a request matcher stubserver does not implement (e.g. customMatcher)",
            "with a warning; it never matches. Default: such a stub is an error naming the file and field."
        ) { options, _, _ in
            options.lenientMatchers = true
        },
        // WireMock's flag: stubserver prints no banner (its first line is `Listening on …`).
        ServeOption("--disable-banner", help: "Accepted for WireMock's command lines; stubserver prints no banner.") {
            _, _, _ in
        },
        ServeOption(
            "--admin-token", value: "TOKEN",
            help: "Admin calls (/__admin) need `Authorization: Bearer TOKEN`, else 401.",
            "Default: $STUBSERVER_ADMIN_TOKEN, else none (loopback clients only)."
        ) { options, text, name in
            if text.isEmpty { throw CLIError("--admin-token needs a token, e.g. --admin-token \"$(uuidgen)\"") }
            options.adminToken = text
        },
        ServeOption(
            "--allowed-host", value: "NAME",
            help: "Also answer admin calls for Host NAME (repeatable). Without a token the admin API",
            "answers only IP addresses, localhost and single-label names (DNS-rebinding guard)."
        ) { options, text, name in
            guard !text.isEmpty, !text.contains(where: { ":/ []".contains($0) }) else {
                throw CLIError(
                    "--allowed-host expects a host name without scheme or port, e.g. --allowed-host stubs.ci.example, got '\(text)'"
                )
            }
            options.allowedHosts.append(text.lowercased())
        },
        ServeOption(
            "--host-alias", value: "NAME",
            help: "Serve virtual host NAME (e.g. api.example.com) on a port of its own (repeatable): requests",
            "there match as sent to NAME whatever their Host says; mappings/NAME/ holds its stubs."
        ) { options, text, name in
            if let problem = StubServer.virtualHostNameProblem(text) { throw CLIError("\(name) '\(text)': \(problem)") }
            guard !options.virtualHosts.contains(text.lowercased()) else {
                throw CLIError("\(name) \(text) is given twice")
            }
            options.virtualHosts.append(text.lowercased())
        },
        ServeOption(
            "--https-port", value: "N",
            help: "Also serve HTTPS on port N (0 picks a free one), with a certificate for localhost,",
            "127.0.0.1 and ::1 signed by the local CA (see `stubserver ca`). Default: none",
            integer: \.httpsPortValue, in: 0...65535),
        ServeOption("--https-only", help: "Serve HTTPS only: on --https-port if given, else on --port.") {
            options, _, _ in
            options.httpsOnly = true
        },
        ServeOption(
            "--ca-dir", value: "DIR",
            help: "The local CA's folder (HTTPS, forward-proxy tunnels), made on first use (owner-only).",
            "Default: the per-user one"
        ) { options, text, name in
            if text.isEmpty { throw CLIError("\(name) needs a directory") }
            options.caDirectory = text
        },
        ServeOption("--https-cert", value: "FILE", help: "Serve your own PEM certificate chain (with --https-key)") {
            options, text, name in
            if text.isEmpty { throw CLIError("\(name) needs a PEM file") }
            options.httpsCertificate = text
        },
        ServeOption("--https-key", value: "FILE", help: "The PEM private key of --https-cert") { options, text, name in
            if text.isEmpty { throw CLIError("\(name) needs a PEM file") }
            options.httpsKey = text
        },
        ServeOption("--https-pkcs12", value: "FILE", help: "Serve the certificate and key of a PKCS#12 file") {
            options, text, name in
            if text.isEmpty { throw CLIError("\(name) needs a .p12 file") }
            options.httpsPKCS12 = text
        },
        ServeOption("--https-pkcs12-password", value: "PASSWORD", help: "The password of --https-pkcs12. Default: none")
        { options, text, _ in
            options.httpsPKCS12Password = text
        },
        ServeOption("--no-admin", help: "Turn the admin API off: /__admin paths are stub traffic (404 unless stubbed).")
        { options, _, _ in
            options.adminAPIEnabled = false
        },
        ServeOption(
            "--proxy-all", value: "URL",
            help: "Forward every request no stub matches to URL (http or https) and return its",
            "answer; stubs still win. Upstream errors are a 502, timeouts a 504."
        ) { options, text, name in
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil
            else {
                throw CLIError(
                    "--proxy-all expects an http:// or https:// URL such as https://api.github.com, got '\(text)'")
            }
            guard ProxySettings.isForwardingAvailable else {
                throw CLIError("--proxy-all: \(ProxySettings.unavailableReason)")
            }
            options.proxyAll = url
        },
        ServeOption(
            "--proxy-unmatched", "--enable-browser-proxying",
            help: "As a forward proxy (the client's HTTP proxy), send a request no stub matches on to its",
            "real host instead of answering 404 (alias: WireMock's --enable-browser-proxying). Default: 404"
        ) { options, _, name in
            guard ProxySettings.isForwardingAvailable else {
                throw CLIError("\(name): \(ProxySettings.unavailableReason)")
            }
            options.forwardProxy.passUnmatched = true
        },
        ServeOption(
            "--proxy-allow-host", value: "HOST",
            help: "As a forward proxy, serve only HOST (repeatable; *.example.com for names below it):",
            "CONNECTs and proxied requests for other hosts get a 403. Default: any host"
        ) { options, text, name in
            let bare = text.hasPrefix("*.") ? String(text.dropFirst(2)) : text
            guard !bare.isEmpty, !bare.contains(where: { ":/ []*".contains($0) }) else {
                throw CLIError("\(name) expects a host name such as api.example.com or *.example.com, got '\(text)'")
            }
            options.forwardProxy.allowedHosts.append(text.lowercased())
        },
        ServeOption(
            "--proxy-connect-port", value: "PORT",
            help: "Also end CONNECT tunnels to PORT (repeatable), with TLS. Default: 443 (TLS) and 80"
        ) { options, text, name in
            guard let port = Int(text), (1...65535).contains(port) else {
                throw CLIError("\(name) expects a port from 1 to 65535, got '\(text)'")
            }
            if !options.forwardProxy.connectPorts.contains(port) { options.forwardProxy.connectPorts.append(port) }
        },
        ServeOption(
            "--proxy-timeout", value: "MS",
            help: "How long a forwarded request may take before the client gets a 504. Default: 30000",
            integer: \.proxyTimeoutMilliseconds, in: 1...3_600_000, unit: "milliseconds"),
        ServeOption(
            "--shutdown-grace", value: "SECONDS",
            help: "How long SIGINT/SIGTERM let in-flight (e.g. delayed) responses finish before",
            "closing them; a response whose client left never holds it. Default: 5"
        ) { options, text, name in
            guard let seconds = Double(text), seconds.isFinite, (0...3600).contains(seconds) else {
                throw CLIError("--shutdown-grace expects seconds from 0 to 3600 (e.g. 5 or 0.5), got '\(text)'")
            }
            options.shutdownGrace = .milliseconds(Int64((seconds * 1000).rounded()))
        },
        ServeOption(
            "--max-connections", value: "N",
            help: "The most connections open at once. Near it, connections that never sent a",
            "byte are closed, oldest first, to make room; with none to close, a new",
            "connection gets 503. Default: 4096",
            integer: \.maxConnections, in: 1...1_000_000),
        ServeOption(
            "--max-servers", value: "N",
            help: "The most isolated servers at once (POST /__admin/servers: each its own",
            "port, stubs, journal and scenarios, for parallel test runners); past it",
            "429. 'stubs' must name a folder inside --stubs. 0 allows none. Default: 16",
            integer: \.maxServers, in: 0...1024),
        ServeOption(
            "--max-json-match-body", value: "SIZE",
            help: "The largest request body parsed as JSON, by equalToJson and matchesJsonPath",
            "(they do not match a larger body; its near-miss report says why) and by a",
            "template's jsonPath (a larger one answers 500 naming this). Default: 4MiB",
            size: \.jsonMatchBodyLimit, example: "4194304, 4MiB or 512KiB", minimum: 0),
        ServeOption(
            "--template-max-steps", value: "N",
            help: "The most evaluation steps of one templated response (one per tag and per",
            "#each element); beyond it the request gets a 500 naming the stub. Default: 1000000",
            integer: \.templateLimits.maxSteps, in: 1...1_000_000_000),
        ServeOption(
            "--template-max-output", value: "SIZE",
            help: "The most bytes one templated response renders (escaping included); beyond",
            "it the request gets a 500 naming the stub. Default: 16MiB",
            size: \.templateLimits.maxOutputBytes, example: "16777216, 16MiB or 512KiB"),
        ServeOption(
            "--openapi", value: "FILE",
            help: "Answer every operation of an OpenAPI 3.0/3.1 document (YAML or JSON; repeatable)",
            "after the stubs, and check each request against it. Default: none"
        ) { options, text, name in
            if text.isEmpty { throw CLIError("\(name) needs an OpenAPI document (YAML or JSON)") }
            options.openAPI.append(text)
        },
        ServeOption(
            "--openapi-validation", value: "reject|log|off",
            help: "What a request breaking its OpenAPI operation gets: a 400 problem+json naming",
            "each violation, a log line (then it is answered), or nothing. Default: reject"
        ) { options, text, _ in
            guard let mode = OpenAPIValidation(rawValue: text) else {
                throw CLIError("--openapi-validation expects reject, log or off, got '\(text)'")
            }
            options.openAPIValidation = mode
        },
        ServeOption(
            "--data-dir", value: "DIR",
            help: "Save the data collections (collections/*.json, POST /__admin/stubserver/data) in DIR,",
            "one NAME.json each: a collection starts from its file, and every change is written back",
            "(a temporary file renamed over the old one), also at exit. Default: in memory only"
        ) { options, text, name in
            if text.isEmpty { throw CLIError("\(name) needs a directory") }
            options.dataDirectory = text
        },
        ServeOption(
            "--faker-seed", value: "N",
            help: "Seed templates' fake data ({{fake 'Name.firstName'}}, {{random 'Name.name'}}):",
            "a stub's values then depend only on N, its id and how many times it has answered,",
            "not on requests to other stubs, so runs repeat; also seeds values made from OpenAPI",
            "schemas. Default: random values (OpenAPI values: seed 0)."
        ) { options, text, name in
            guard let seed = UInt64(text) else {
                throw CLIError("--faker-seed expects a whole number from 0 to \(UInt64.max), e.g. 42, got '\(text)'")
            }
            options.fakeDataSeed = seed
        },
        ServeOption(["--version"], help: "Print the version and exit.", action: .version),
        ServeOption(["-h", "--help"], help: "Print this help and exit.", action: .help)
    ]
}
