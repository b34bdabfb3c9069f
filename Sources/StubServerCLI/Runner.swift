import Foundation
import StubKit

/// Runs `stubserver`: parse the arguments, then serve until SIGINT or SIGTERM.
public enum Runner {
    /// The whole program. Returns the exit code.
    public static func main(_ arguments: [String]) -> ExitCode {
        let command: Command
        do {
            command = try CommandParser.parse(arguments)
        } catch {
            StandardStreams.error("Error: \(error)\n\n\(usageText)\n")
            return .usage
        }
        switch command {
        case .help:
            StandardStreams.output(usageText + "\n")
            return .success
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
        var configuration = StubServer.Configuration(host: options.host, port: options.port)
        if options.verbose {
            configuration.onRequest = { entry, duration in
                StandardStreams.error(RequestLogLine(entry, duration: duration).text + "\n")
            }
        }
        // Taken before loading: the watcher reloads on any change made after this point.
        let baseline = options.watch ? StubsWatcher.fingerprint(of: options.stubs) : [:]
        let server: StubServer
        do throws(StubServerError) {
            server = try StubServer(stubs: URL(fileURLWithPath: options.stubs), configuration: configuration)
            try server.start()
        } catch {
            switch error {
            case let .badStubs(error):
                StandardStreams.error("stubserver: error: \(error)\n")
                return .badStubs
            case let .cannotListen(error):
                let hint = switch error.kind {
                case .addressInUse: " Use --port 0 to pick a free port."
                case .invalidAddress: " Use an address of this machine, e.g. --host 127.0.0.1 or --host ::1."
                default: ""
                }
                StandardStreams.error("stubserver: error: \(error).\(hint)\n")
                return .cannotListen
            }
        }
        let watcher = options.watch ? StubsWatcher(server: server, directory: options.stubs, baseline: baseline) : nil
        StandardStreams.output("Listening on \(server.baseURL.absoluteString)\n")
        StandardStreams.error("stubserver: serving \(stubCount(server.mappings.count)) from \(options.stubs)\n")

        signals.wait()
        watcher?.stop()
        server.stop()
        return .success
    }
}
