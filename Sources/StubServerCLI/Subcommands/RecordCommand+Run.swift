import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension RecordCommand {
    public func run() -> ExitCode {
        // As the server does: before any thread exists, so a signal sent right after `Listening on`
        // waits for `signals.wait()`.
        let signals = TerminationSignals.block()
        defer { signals.restore() }
        let log = LogSink()
        defer { log.flush(timeout: Runner.finalFlushTimeout) }
        var configuration = StubServer.Configuration(host: host, port: port)
        configuration.onShutdownRequest = { TerminationSignals.requestTermination() }
        configuration.log = log
        configuration.proxy.timeout = .milliseconds(proxyTimeoutMilliseconds)
        configuration.forwardProxy.certificateAuthorityDirectory = caDirectory.map {
            URL(fileURLWithPath: $0, isDirectory: true)
        }
        // The recording's own report says what was forwarded; unmatched-request reports would be noise.
        configuration.unmatchedRequestLogging = .none
        let server: StubServer
        do throws(StubServerError) {
            server = try StubServer(stubs: nil, configuration: configuration)
            try server.start()
        } catch {
            log.write("stubserver: error: \(error)")
            return .cannotListen
        }
        if let target, targetsItself(target, listeningOn: server.port) {
            log.write(
                "stubserver: error: --target \(target.absoluteString) is this recorder itself (listening on "
                    + "\(server.baseURL.absoluteString)); it would record its own answers. Point --target at the real API."
            )
            server.stop()
            return .usage
        }
        do throws(RecordingError) {
            try server.startRecording(spec)
        } catch {
            log.write("stubserver: error: \(error)")
            server.stop()
            return .failure
        }
        StandardStreams.output(
            "Listening on \(server.baseURL.absoluteString)\n"
                + "Recording \(spec.source) into \(stubs); stop with Ctrl-C (SIGINT), SIGTERM, SIGHUP or SIGQUIT to write the stubs\n"
        )
        // Any stop signal ends the recording the same way: the stubs are written, then the exit code
        // says only whether writing worked.
        signals.wait()
        // In-flight forwards finish (and are kept) before the recording ends.
        server.stop()
        do throws(RecordingError) {
            let recorded = try server.stopRecording()
            StandardStreams.output(
                recorded.summary.report(
                    secretsHint: "(--keep-secret NAME records one of them; --keep-all-secrets records them all)") + "\n"
            )
            return .success
        } catch {
            StandardStreams.error("stubserver: error: \(error)\n")
            return .failure
        }
    }

    /// Whether `target` names this recorder's own socket: a loopback or wildcard address (or the
    /// `--host` given) on the port it listens on.
    func targetsItself(_ target: URL, listeningOn listeningPort: Int) -> Bool {
        let scheme = target.scheme?.lowercased()
        guard let host = target.host?.lowercased(), target.port ?? (scheme == "https" ? 443 : 80) == listeningPort
        else { return false }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return ["localhost", "127.0.0.1", "::1", "0.0.0.0", "::", self.host.lowercased()].contains(bare)
    }
}
