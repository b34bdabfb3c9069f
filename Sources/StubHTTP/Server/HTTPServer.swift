#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server: a listening socket (and any ``HTTPServerConfiguration/additionalListeners``) and N
/// event-loop threads calling an ``HTTPHandler``.
///
/// ```swift
/// let server = HTTPServer { request, responder in
///     responder.respond(.text("hello"))
/// }
/// try server.start()            // 127.0.0.1, port picked by the kernel
/// print(server.port)
/// defer { server.stop() }
/// ```
public final class HTTPServer: Sendable {
    private struct Running: Sendable {
        let loops: [EventLoop]
        /// The primary listener first, then one per ``HTTPServerConfiguration/additionalListeners`` entry.
        let listeners: [Listener]
        let addresses: BoundAddresses
        /// Apple platforms: Network.framework's TLS in front of the HTTPS listeners (none elsewhere).
        var frontends: [NetworkTLSFrontend] = []
    }

    /// Where each listener is bound: the primary one, and the additional ones by label.
    private struct BoundAddresses: Sendable {
        let primary: SocketAddress
        let labelled: [String: SocketAddress]
        /// The HTTPS twins' addresses by listener label (`nil`: the primary listener's); empty without TLS.
        var secure: [String?: SocketAddress] = [:]
    }

    private enum State: Sendable {
        case idle
        case running(Running)
        /// `waiters`: ``shutdown()`` callers to resume once stopped.
        case stopping(Running, waiters: [@Sendable () -> Void])
        case stopped(BoundAddresses?)
    }

    let context: ServerContext
    private let state = ConditionLock(State.idle)

    /// Creates a server; nothing is bound until ``start()``.
    public init(configuration: HTTPServerConfiguration = .init(), handler: some HTTPHandler) {
        context = ServerContext(handler: handler, configuration: configuration)
    }

    /// Creates a server answering with a closure.
    public convenience init(
        configuration: HTTPServerConfiguration = .init(),
        handler: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void
    ) {
        self.init(configuration: configuration, handler: ClosureHandler(body: handler))
    }

    /// The configuration the server was created with.
    public var configuration: HTTPServerConfiguration { context.configuration }

    /// The bound port: the kernel's pick when configured with port 0. The configured port before ``start()``.
    public var port: Int { boundAddresses?.primary.port ?? context.configuration.port }

    /// The bound HTTPS port of the primary listener (``HTTPServerConfiguration/tls``): the kernel's pick when
    /// configured with port 0, the configured port before ``start()``; `nil` without TLS.
    public var tlsPort: Int? {
        guard let tls = context.configuration.tls else { return nil }
        return boundAddresses?.secure[nil]?.port ?? tls.port
    }

    /// The bound HTTPS port of the additional listener labelled `label`; `nil` without TLS or such a listener,
    /// 0 before ``start()``.
    public func tlsPort(ofListener label: String) -> Int? {
        guard context.configuration.tls != nil,
            context.configuration.additionalListeners.contains(where: { $0.label == label })
        else { return nil }
        return boundAddresses?.secure[label]?.port ?? 0
    }

    /// The bound numeric host (e.g. `127.0.0.1`, `::1`); the configured host before ``start()``.
    public var host: String { boundAddresses?.primary.host ?? context.configuration.host }

    /// The bound port of the additional listener labelled `label`
    /// (``HTTPServerConfiguration/additionalListeners``): the kernel's pick when configured with port 0, the
    /// configured port before ``start()``. `nil` when no listener has that label.
    public func port(ofListener label: String) -> Int? {
        if let bound = boundAddresses?.labelled[label] { return bound.port }
        return context.configuration.additionalListeners.first { $0.label == label }?.port
    }

    /// Whether the server accepts connections: true from ``start()`` until ``stop()`` or ``shutdown()``
    /// begins.
    public var isRunning: Bool {
        state.withLock { state in
            if case .running = state { true } else { false }
        }
    }

    private var boundAddresses: BoundAddresses? {
        state.withLock { state in
            switch state {
            case .idle: nil
            case .running(let running): running.addresses
            case .stopping(let running, _): running.addresses
            case .stopped(let addresses): addresses
            }
        }
    }

    /// The running server's listener labelled `label` (nil: the primary one); nil when not running or no
    /// listener has that label.
    func listener(labeled label: String?) -> Listener? {
        state.withLock { state in
            if case .running(let running) = state { running.listeners.first { $0.label == label } } else { nil }
        }
    }

    /// The running server's listeners; none when not running.
    var runningListeners: [Listener] {
        state.withLock { state in
            if case .running(let running) = state { running.listeners } else { [] }
        }
    }

    /// The running server's event loops; none when not running.
    var runningLoops: [EventLoop] {
        state.withLock { state in
            if case .running(let running) = state { running.loops } else { [] }
        }
    }

    /// Binds, listens and starts the event loops; returns once connections are accepted. With
    /// ``HTTPServerConfiguration/additionalListeners``, binds every listener or none: on a failure the sockets
    /// already bound are closed and the error names the listener that failed.
    /// - Throws: ``ServerError``: `.addressInUse` ("cannot listen on 127.0.0.1:8080: address already in
    ///   use"), `.invalidAddress` (also for an empty or repeated listener label), `.alreadyStarted`, or
    ///   `.system(errno:)`.
    public func start() throws(ServerError) {
        try state.withLock { (state) throws(ServerError) in
            guard case .idle = state else {
                throw ServerError(.alreadyStarted, "cannot start the server: it was already started")
            }
            state = .running(try makeRunning())
        }
    }

    private func makeRunning() throws(ServerError) -> Running {
        let configuration = context.configuration
        var seen = Set<String>()
        for extra in configuration.additionalListeners {
            guard !extra.label.isEmpty, seen.insert(extra.label).inserted else {
                let problem =
                    extra.label.isEmpty ? "a listener label is empty" : "two listeners are labelled '\(extra.label)'"
                throw ServerError(
                    .invalidAddress, "cannot start the server: \(problem); give each listener its own label")
            }
        }
        var tls: TLSContext?
        if let wanted = configuration.tls, !NetworkTLSFrontend.isUsed {
            tls = try TLSContext(credentials: wanted.credentials)
        }
        var sockets: [(label: String?, socket: Socket, address: SocketAddress, secure: Bool, publicPort: Int?)] = []
        var frontends: [NetworkTLSFrontend] = []
        let closeAll = {
            for bound in sockets { bound.socket.close() }
            for frontend in frontends { frontend.stop() }
        }
        for listener in Self.wantedListeners(configuration) {
            do {
                if listener.secure, NetworkTLSFrontend.isUsed, let credentials = configuration.tls?.credentials {
                    // The engine listens on loopback; Network.framework's TLS listens on the public address.
                    let (socket, backend) = try Self.bind(
                        host: "127.0.0.1", port: 0, label: listener.label, secure: true, backlog: configuration.backlog)
                    sockets.append((listener.label, socket, backend, true, nil))
                    let frontend = try NetworkTLSFrontend(
                        credentials: credentials, host: listener.host, port: listener.port, backendPort: backend.port)
                    frontends.append(frontend)
                    let address = SocketAddress.resolve(host: listener.host, port: frontend.port) ?? backend
                    sockets[sockets.count - 1] = (listener.label, socket, address, true, frontend.port)
                } else {
                    let (socket, address) = try Self.bind(
                        host: listener.host, port: listener.port, label: listener.label, secure: listener.secure,
                        backlog: configuration.backlog)
                    sockets.append((listener.label, socket, address, listener.secure, nil))
                }
            } catch {
                closeAll()
                throw error
            }
        }
        var loops: [EventLoop] = []
        do {
            for index in 0..<max(1, configuration.eventLoopCount) {
                loops.append(try EventLoop(index: index, backend: configuration.selectorBackend))
            }
            var listeners: [Listener] = []
            for bound in sockets {
                let listener = Listener(
                    socket: bound.socket, loops: loops, server: context, label: bound.label,
                    tls: bound.secure ? tls : nil, isSecure: bound.secure, reportedPort: bound.publicPort)
                try listener.register()
                listeners.append(listener)
            }
            for loop in loops { try loop.start() }
            var labelled: [String: SocketAddress] = [:]
            var secure: [String?: SocketAddress] = [:]
            for bound in sockets {
                if bound.secure {
                    secure[bound.label] = bound.address
                } else if let label = bound.label {
                    labelled[label] = bound.address
                }
            }
            if configuration.tls?.servesPlainHTTP == false {
                for (label, address) in secure { if let label { labelled[label] = address } }
            }
            return Running(
                loops: loops, listeners: listeners,
                addresses: BoundAddresses(primary: sockets[0].address, labelled: labelled, secure: secure),
                frontends: frontends)
        } catch {
            closeAll()
            for loop in loops { loop.stopAndJoin() }
            throw Self.listenError(error, name: Self.displayName(host: configuration.host, port: configuration.port))
        }
    }

    /// Every socket to listen on, the primary listener's first: the plain ones unless HTTPS only, then with TLS a
    /// twin of each, on ``HTTPServerConfiguration/TLS/port`` for the primary listener and a free port for the others.
    private static func wantedListeners(_ configuration: HTTPServerConfiguration) -> [(
        label: String?, host: String, port: Int, secure: Bool
    )] {
        let plain =
            [(label: String?.none, host: configuration.host, port: configuration.port)]
            + configuration.additionalListeners.map { (label: Optional($0.label), host: $0.host, port: $0.port) }
        guard let tls = configuration.tls else { return plain.map { ($0.label, $0.host, $0.port, false) } }
        let twins = plain.map { ($0.label, $0.host, $0.label == nil ? tls.port : 0, true) }
        return tls.servesPlainHTTP ? plain.map { ($0.label, $0.host, $0.port, false) } + twins : twins
    }

    /// `127.0.0.1:8080`, `[::1]:8080`, followed by ` (listener 'api')` for an additional listener, and ` (HTTPS)`
    /// for a TLS one.
    private static func displayName(host: String, port: Int, label: String? = nil, secure: Bool = false) -> String {
        let address = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let named = label.map { "\(address) (listener '\($0)')" } ?? address
        return secure ? "\(named) (HTTPS)" : named
    }

    /// A listening socket on `host:port` and the address it is bound to.
    private static func bind(host: String, port: Int, label: String?, secure: Bool, backlog: Int32) throws(ServerError)
        -> (Socket, SocketAddress)
    {
        let name = displayName(host: host, port: port, label: label, secure: secure)
        guard let address = SocketAddress.resolve(host: host, port: port) else {
            let reason =
                (0...65535).contains(port) ? "host '\(host)' cannot be resolved" : "port \(port) is out of range"
            throw ServerError(.invalidAddress, "cannot listen on \(name): \(reason)")
        }
        let socket: Socket
        do {
            socket = try Socket.listen(on: address, backlog: backlog)
        } catch {
            throw listenError(error, name: name)
        }
        do {
            return (socket, try socket.localAddress())
        } catch {
            socket.close()
            throw listenError(error, name: name)
        }
    }

    private static func listenError(_ error: SocketError, name: String) -> ServerError {
        switch error.errno {
        case EADDRINUSE:
            ServerError(.addressInUse, "cannot listen on \(name): address already in use")
        case EADDRNOTAVAIL:
            ServerError(.invalidAddress, "cannot listen on \(name): address not available on this machine")
        case EACCES:
            ServerError(
                .system(errno: error.errno),
                "cannot listen on \(name): permission denied (ports below 1024 need privileges)")
        default:
            ServerError(.system(errno: error.errno), "cannot listen on \(name): \(error)")
        }
    }

    /// Stops the server: closes the listener and idle connections, lets in-flight responses finish for
    /// up to ``HTTPServerConfiguration/shutdownGracePeriod``, closes the rest and joins the loop threads.
    /// Responses whose client left are dropped at once and do not hold it up.
    ///
    /// Blocks the calling thread until stopped: from Swift concurrency, call ``shutdown()`` instead.
    /// Idempotent and safe from any thread. Concurrent callers all return once the server stopped.
    /// Called on one of the server's own loop threads, it returns at once and stops in the background.
    public func stop() {
        let step = beginStop(waiter: nil)
        let onLoopThread: (Running) -> Bool = { running in running.loops.contains { $0.inEventLoop } }
        switch step {
        case .done:
            return
        case .wait(let running):
            // On a loop thread, waiting would deadlock: the stopping thread joins this very thread.
            guard !onLoopThread(running) else { return }
            state.wait { if case .stopped = $0 { true } else { false } }
        case .stop(let running):
            if onLoopThread(running) { performStopInBackground(running) } else { performStop(running) }
        }
    }

    /// Stops the server as ``stop()`` does, suspending the caller instead of blocking its thread: the
    /// stop runs on a thread of its own, and this returns once it is complete. Use it from async code
    /// (a Swift Testing trait, an `async` test or `tearDown`), where a blocked thread is one less for
    /// every other task of the cooperative pool.
    ///
    /// ```swift
    /// try server.start()
    /// …
    /// await server.shutdown()
    /// ```
    ///
    /// Idempotent; concurrent callers, sync or async, all return once the server stopped.
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume: @Sendable () -> Void = { continuation.resume() }
            switch beginStop(waiter: resume) {
            case .stop(let running): performStopInBackground(running)
            case .wait: break
            case .done: resume()
            }
        }
    }

    /// What a ``stop()`` or ``shutdown()`` caller does after ``beginStop(waiter:)``.
    private enum StopStep {
        /// This caller moved the server to stopping: it performs the stop.
        case stop(Running)
        /// Another caller is stopping the server: wait for it.
        case wait(Running)
        /// Never started or already stopped: nothing to do.
        case done
    }

    /// The state transition ``stop()`` and ``shutdown()`` share, under the state lock: an idle server becomes
    /// stopped, a running one stopping (with `waiter`, if any, to resume once stopped). While stopping, `waiter`
    /// is added to those resumed once stopped; an idle or stopped server does not keep it.
    private func beginStop(waiter: (@Sendable () -> Void)?) -> StopStep {
        state.withLock { state -> StopStep in
            switch state {
            case .idle:
                state = .stopped(nil)
                return .done
            case .running(let running):
                state = .stopping(running, waiters: waiter.map { [$0] } ?? [])
                return .stop(running)
            case .stopping(let running, let waiters):
                if let waiter { state = .stopping(running, waiters: waiters + [waiter]) }
                return .wait(running)
            case .stopped:
                return .done
            }
        }
    }

    /// Runs ``performStop(_:)`` on a new thread (inline if no thread can be created).
    private func performStopInBackground(_ running: Running) {
        if let handle = try? ThreadHandle.spawn({ [self] in self.performStop(running) }) {
            handle.detach()
        } else {
            performStop(running)
        }
    }

    private func performStop(_ running: Running) {
        let loops = running.loops
        let listeners = running.listeners
        for frontend in running.frontends { frontend.stop() }
        // Close the listeners first, then (FIFO per loop) reach every connection handed out before it.
        loops[0].execute {
            for listener in listeners { listener.close() }
            for loop in loops { loop.execute { loop.shutdownChannels(graceful: true) } }
        }
        context.openConnections.wait(timeout: context.configuration.shutdownGracePeriod) { $0 <= 0 }
        for loop in loops { loop.stopAndJoin() }
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            defer { state = .stopped(running.addresses) }
            if case .stopping(_, let waiters) = state { return waiters }
            return []
        }
        for resume in waiters { resume() }
    }
}
