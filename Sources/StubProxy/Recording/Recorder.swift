import StubHTTP
import StubMatching
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The recording in progress, if any: while recording, every request is forwarded to the target (or, recording
/// as a forward proxy, a proxied request to its own host) and each exchange forwarded (by the recording or by a
/// proxy stub) is kept, up to a bound in bytes.
///
/// Capturing happens where forwarded answers arrive (the proxy's own threads, never an event loop);
/// the request handler only asks ``route`` (one uncontended lock) per request.
package final class Recorder: Sendable {
    private struct Session {
        let spec: RecordingSpec
        let route: Route
        let filter: CompiledRequestPattern?
        var exchanges: [RecordedExchange] = []
        var bytes = 0
        /// Exchanges left out for the byte bound, listed when stopping (at most ``skippedListLimit``).
        var skipped: [RecordingSummary.Skipped] = []
        var skippedCount = 0
    }

    private enum State {
        case neverStarted
        case recording(Session)
        case stopped
    }

    private let state = LockedValue<State>(.neverStarted)

    static let skippedListLimit = 20

    package init() {}

    package var status: RecordingStatus {
        state.withLock { state in
            switch state {
            case .neverStarted: .neverStarted
            case .recording: .recording
            case .stopped: .stopped
            }
        }
    }

    /// Where requests go while recording.
    package struct Route: Sendable {
        /// Where requests go (a proxied one too, unless ``forwardProxy``); `nil`: nowhere, the stubs answer them.
        package let target: ProxyDefinition?
        /// Whether a proxied request goes to its own host (``RecordingSpec/forwardProxy``).
        package let forwardProxy: Bool
    }

    /// Where requests go while recording; `nil` when not recording.
    package var route: Route? {
        state.withLock { state in
            guard case .recording(let session) = state else { return nil }
            return session.route
        }
    }

    /// Starts recording as `spec` says.
    /// - Throws: ``RecordingError`` when already recording (naming that target) or the target is not
    ///   an http(s) URL with a host.
    package func start(_ spec: RecordingSpec) throws(RecordingError) {
        if let url = spec.target {
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = url.host, !host.isEmpty
            else {
                throw RecordingError(kind: .badTarget(url.absoluteString))
            }
        } else if !spec.forwardProxy {
            throw RecordingError(kind: .badTarget(""))
        }
        let route = Route(
            target: spec.target.map { ProxyDefinition(baseURL: $0.absoluteString) }, forwardProxy: spec.forwardProxy)
        let session = Session(spec: spec, route: route, filter: spec.filter.map(CompiledRequestPattern.init))
        try state.withLock { (state) throws(RecordingError) in
            if case .recording(let current) = state {
                throw RecordingError(kind: .alreadyRecording(target: current.spec.source))
            }
            state = .recording(session)
        }
    }

    /// Keeps `request` and the upstream's `response` when recording, the filter matches and the
    /// byte bound allows. Call off the event loops: it copies the bodies.
    package func capture(_ request: StubHTTPRequest, _ response: HTTPResponse) {
        guard let route else { return }
        let proxied = route.forwardProxy && RequestContext.isProxied(request)
        let host = proxied ? RequestContext.authority(of: request).host : nil
        let exchange = RecordedExchange(
            request: .init(
                method: request.method.rawValue, url: String(request.pathAndQuery), headers: request.headers,
                body: request.body, host: host),
            response: .init(status: response.status.code, headers: response.headers, body: response.body))
        let cost = Self.cost(of: exchange)
        state.withLock { state in
            guard case .recording(var session) = state else { return }
            if let filter = session.filter, !filter.matches(request) { return }
            state = .stopped  // let the session's arrays be uniquely referenced while changed
            if session.bytes + cost > session.spec.maxBytes {
                session.skippedCount += 1
                if session.skipped.count < Self.skippedListLimit {
                    session.skipped.append(
                        .init(
                            request: "\(exchange.request.method) \(exchange.request.url)",
                            reason: "not recorded: the recording holds \(session.spec.maxBytes) bytes at most"))
                }
            } else {
                session.exchanges.append(exchange)
                session.bytes += cost
            }
            state = .recording(session)
        }
    }

    /// Ends the recording.
    /// - Returns: its spec, the exchanges kept in order, and those left out for the byte bound.
    /// - Throws: ``RecordingError`` when not recording.
    package func stop() throws(RecordingError) -> (
        spec: RecordingSpec, exchanges: [RecordedExchange], skipped: [RecordingSummary.Skipped]
    ) {
        try state.withLock { (state) throws(RecordingError) in
            guard case .recording(let session) = state else { throw RecordingError(kind: .notRecording) }
            state = .stopped
            var skipped = session.skipped
            if session.skippedCount > skipped.count {
                skipped.append(
                    .init(
                        request: "… and \(session.skippedCount - skipped.count) more",
                        reason: "not recorded: the byte limit was reached"))
            }
            return (session.spec, session.exchanges, skipped)
        }
    }

    /// What an exchange counts against ``RecordingSpec/maxBytes``: bodies, URL and header fields.
    static func cost(of exchange: RecordedExchange) -> Int {
        func headers(_ fields: StubHTTPHeaders) -> Int {
            fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        }
        return exchange.request.body.count + exchange.response.body.count + exchange.request.url.utf8.count
            + headers(exchange.request.headers) + headers(exchange.response.headers) + 64
    }
}
