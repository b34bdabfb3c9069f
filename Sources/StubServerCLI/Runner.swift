import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs `stubserver`: parse the arguments, then serve until SIGINT, SIGTERM, SIGHUP or SIGQUIT.
public enum Runner {
    /// The whole program. Returns the exit code.
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - environment: the process environment, for ``OptionsEnvironment`` (`STUBSERVER_OPTIONS`,
    ///     `WIREMOCK_OPTIONS`).
    public static func main(
        _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ExitCode {
        let command: Command
        do {
            command = try CommandParser.parse(
                OptionsEnvironment.arguments(arguments, environment: environment),
                environment: environment)
        } catch {
            let usage = error.subcommand.flatMap(Subcommands.named)?.usage ?? usageText
            // Subcommands do not read the options variables: name them only for errors in serving options.
            let source = error.subcommand == nil ? OptionsEnvironment.shown(in: environment) : ""
            StandardStreams.error("Error: \(error)\(source)\n\n\(usage)\n")
            return .usage
        }
        switch command {
        case .help:
            StandardStreams.output(usageText + "\n")
            return .success
        case let .subcommandHelp(type):
            StandardStreams.output(type.usage + "\n")
            return .success
        case let .subcommand(subcommand):
            return subcommand.run()
        case .version:
            StandardStreams.output("stubserver \(stubserverVersion)\n")
            return .success
        case let .serve(options):
            return serve(options)
        }
    }

    static func serve(_ options: Options) -> ExitCode {
        // Before the server's threads exist, so they inherit the mask and a signal sent right after
        // `Listening on` waits for `signals.wait()` instead of killing the process.
        let signals = TerminationSignals.block()
        defer { signals.restore() }
        // Every line from here on goes through the log's queue and thread, never straight to stderr
        // from a server thread; the final flush is bounded, so a reader that never reads cannot
        // keep the process from exiting.
        let log = LogSink()
        defer { log.flush(timeout: finalFlushTimeout) }
        var configuration = StubServer.Configuration(host: options.host, port: options.port)
        // POST /__admin/shutdown: the same graceful path as SIGTERM (the signal waits in `signals.wait()`).
        configuration.onShutdownRequest = { TerminationSignals.requestTermination() }
        configuration.network = options.network
        configuration.bytesPerSecond = options.bytesPerSecond
        configuration.log = log
        configuration.unmatchedRequestLogging = options.logUnmatched
        configuration.journal = options.journal
        configuration.globalResponseTemplating = options.globalResponseTemplating
        configuration.strictBodyFiles = options.strictBodyFiles
        configuration.lenientMatchers = options.lenientMatchers
        configuration.adminToken = options.adminToken
        configuration.allowedHosts = options.allowedHosts
        configuration.virtualHosts = options.virtualHosts
        configuration.adminAPIEnabled = options.adminAPIEnabled
        configuration.proxy.target = options.proxyAll
        configuration.forwardProxy = options.forwardProxy
        configuration.forwardProxy.certificateAuthorityDirectory =
            options.caDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        configuration.proxy.timeout = .milliseconds(options.proxyTimeoutMilliseconds)
        configuration.shutdownGrace = options.shutdownGrace
        configuration.maxConnections = options.maxConnections
        configuration.maxIsolatedServers = options.maxServers
        configuration.templateLimits = options.templateLimits
        configuration.jsonMatchBodyLimit = options.jsonMatchBodyLimit
        configuration.fakeDataSeed = options.fakeDataSeed
        configuration.https = options.https
        configuration.openAPIValidation = options.openAPIValidation
        configuration.dataDirectory = options.dataDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        for file in options.openAPI {
            do {
                configuration.openAPI.append(try OpenAPIDocument.load(contentsOf: file))
            } catch {
                log.write("stubserver: error: \(error)")
                log.write("stubserver: `stubserver check --openapi \(file)` checks the document alone")
                return .badStubs
            }
        }
        if options.verbose {
            configuration.onRequest = { entry, duration in
                log.write(RequestLogLine(entry, duration: duration).text)
            }
        }
        // Taken before loading: the watcher reloads on any change made after this point.
        if options.watch, let problem = StubsFolderWritability.watchProblem(options.stubs) {
            log.write("stubserver: error: --watch: \(problem)")
            return .usage
        }
        let baseline = options.watch ? StubsWatcher.fingerprint(of: options.stubs) : [:]
        let server: StubServer
        do throws(StubServerError) {
            server = try StubServer(stubs: URL(fileURLWithPath: options.stubs), configuration: configuration)
            if let delay = options.globalDelayMilliseconds { server.settings.fixedDelayMilliseconds = delay }
            try server.start()
        } catch {
            switch error {
            case let .badStubs(error):
                log.write("stubserver: error: \(error)")
                if error.file != nil {
                    log.write(
                        "stubserver: `stubserver check --stubs \(options.stubs)` lists every error, not only the first")
                }
                return .badStubs
            case let .cannotListen(error):
                let hint =
                    switch error.kind {
                    case .addressInUse: " Use --port 0 to pick a free port."
                    case .invalidAddress: " Use an address of this machine, e.g. --host 127.0.0.1 or --host ::1."
                    case .alreadyStarted, .notRunning, .unknownListener, .system, .tlsUnavailable: ""
                    }
                log.write("stubserver: error: \(error).\(hint)")
                return .cannotListen
            }
        }
        let watcher =
            options.watch
            ? StubsWatcher(server: server, directory: options.stubs, baseline: baseline, log: log) : nil
        StandardStreams.output(Self.listeningLines(server))
        if options.openDashboard { DashboardOpener.open(server, adminAPIEnabled: options.adminAPIEnabled, log: log) }
        let fromDocuments = server.mappings.count { $0.metadata?["openapi"] != nil }
        log.write("stubserver: serving \(stubCount(server.mappings.count - fromDocuments)) from \(options.stubs)")
        for collection in server.dataCollections {
            let count = (try? server.dataItems(collection.name).count) ?? 0
            log.write(
                "stubserver: data collection \(collection.name) at \(collection.basePath): \(count) "
                    + (count == 1 ? "item" : "items") + (collection.source.map { " (\($0))" } ?? "")
                    + (options.dataDirectory.map { ", saved in \($0)" } ?? ""))
        }
        for document in configuration.openAPI {
            log.write(
                "stubserver: answering the \(document.operations.count) operations of \(document.file) "
                    + "(\(document.title)); requests are checked against it (\(options.openAPIValidation.rawValue))")
        }

        signals.wait()
        watcher?.stop()
        server.stop()
        return .success
    }

    /// The startup lines on stdout: `Listening on http://127.0.0.1:8080` first (scripts read the port from it),
    /// then `Listening on https://…` with `--https-port`, then `Host api.example.com on http://127.0.0.1:53128` for
    /// each virtual host (`--host-alias`). With `--https-only` the base URL is the HTTPS one: printed once.
    static func listeningLines(_ server: StubServer) -> String {
        var text = "Listening on \(server.baseURL.absoluteString)\n"
        if let https = server.hosts.first?.httpsBaseURL, https != server.baseURL {
            text += "Listening on \(https.absoluteString)\n"
        }
        for host in server.hosts {
            guard let name = host.name else { continue }
            text += "Host \(name) on \(host.baseURL.absoluteString)\n"
            if let https = host.httpsBaseURL, https != host.baseURL {
                text += "Host \(name) on \(https.absoluteString)\n"
            }
        }
        if let authority = server.certificateAuthority {
            text += "HTTPS certificate signed by the local CA \(authority.certificateURL.path) "
            text += "(trust it: stubserver ca trust --simulator booted)\n"
        }
        return text
    }

    /// How long the last log lines get to reach stderr at exit.
    static let finalFlushTimeout: Duration = .milliseconds(500)
}
