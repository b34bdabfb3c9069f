#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One listening socket, on loop 0: accepts until `EAGAIN` and hands connections to the loops in turn. A server
/// has one per socket: the primary one (``label`` `nil`) and one per
/// ``HTTPServerConfiguration/additionalListeners`` entry.
final class Listener: EventLoopChannel, @unchecked Sendable {
    /// The listener's label, given to every request it accepts (``HTTPEndpoints/listenerLabel``); `nil` for the
    /// primary listener.
    let label: String?
    /// The TLS setup of an HTTPS listener (Linux): each connection gets a session of it.
    let tls: TLSContext?
    /// Whether its connections are HTTPS: ``tls`` is set, or (Apple platforms) Network.framework ends TLS in
    /// front of this loopback listener.
    let isSecure: Bool
    /// The port clients connect to when it is not this socket's: Network.framework's TLS listener's, in front of
    /// this loopback one (Apple platforms). Requests say it as ``HTTPEndpoints/localPort``.
    let reportedPort: Int?
    private var socket: Socket
    let loops: [EventLoop]
    private let server: ServerContext
    private var token: UInt64 = 0
    private var next = 0
    /// The listening socket is closed: offline (see ``closeSocket()``), or stopped.
    private(set) var isClosed = false
    /// Closed for good: the server stops, and the listener never listens again.
    private(set) var isStopped = false
    /// The listener's availability, shared with its connections (see `Listener+Availability.swift`).
    let gate = ListenerGate()
    /// The bound address, to listen on again after going offline.
    private let address: SocketAddress?
    /// While offline: a socket bound to ``address`` and not listening, so connections are refused and no
    /// other server is given the port before ``reopen()`` (ports are scarce only to the kernel: tests
    /// running in parallel start servers on free ports all the time).
    private var reservation: Socket?
    /// Going back online at the end of a timed spell offline or hanging.
    var revertTimer: EventLoop.TimerHandle?

    init(
        socket: Socket, loops: [EventLoop], server: ServerContext, label: String? = nil, tls: TLSContext? = nil,
        isSecure: Bool = false, reportedPort: Int? = nil
    ) {
        self.label = label
        self.reportedPort = reportedPort
        self.tls = tls
        self.isSecure = isSecure || tls != nil
        self.socket = socket
        self.loops = loops
        self.server = server
        address = try? socket.localAddress()
    }

    /// Registers with loop 0. Call before the loop thread runs, or on it.
    func register() throws(SocketError) {
        token = try loops[0].register(self, fd: socket.fd, interest: .readable)
    }

    /// Not watching the listener: out of descriptors, waiting for a pause to pass.
    private var pausedForDescriptors = false
    /// Short pauses (other loops asked to free descriptors) since the last successful accept.
    private var shortPausesInARow = 0

    func handle(_ event: SelectorEvent) {
        var evictionRounds = 0
        while !isClosed && !pausedForDescriptors {
            let accepted: Socket?
            do {
                accepted = try socket.accept()
            } catch {
                guard Self.isOutOfDescriptors(error.errno) else {
                    return  // ECONNABORTED and the like: leave the rest for the next readiness event.
                }
                // Out of descriptors: connections that never sent a byte (else half-sent request heads) give
                // theirs to the clients queued in the backlog, at once on this loop, soon on the others.
                guard evictionRounds < EvictionPolicy.roundsPerWakeUp else {
                    return  // accepting resumes at the loop's next turn; the listener is still readable
                }
                evictionRounds += 1
                // Silent newcomers are spared here: they may be clients whose request is on its way. Pausing
                // (below) gives them the moment to send it, or to grow old enough to go.
                var closedHere = loops[0].evictSilentConnections(
                    count: EvictionPolicy.batch(candidates:),
                    includingNewcomers: false)
                // No silent connection could go here, and no other loop holds one: half-sent request heads
                // give way, or a flood of them would keep new clients waiting in the backlog until the
                // header timeout. Other loops asked below close their silent connections first.
                if closedHere == 0 && server.loopWithMostSilentConnections(excluding: 0) == nil {
                    closedHere = loops[0].evictSilentConnections(
                        count: EvictionPolicy.batch(candidates:),
                        includingHalfSentHeads: true, includingNewcomers: false)
                }
                var askedOtherLoops = false
                if closedHere == 0 {
                    for loop in loops.dropFirst() {
                        loop.execute {
                            loop.evictSilentConnections(
                                count: EvictionPolicy.batch(candidates:), includingHalfSentHeads: true,
                                includingNewcomers: false)
                        }
                        askedOtherLoops = true
                    }
                }
                switch EvictionPolicy.afterShortage(
                    closedHere: closedHere, askedOtherLoops: askedOtherLoops,
                    shortPausesInARow: shortPausesInARow)
                {
                case .acceptAgain:
                    continue
                case .pause(let pause):
                    shortPausesInARow = pause < EvictionPolicy.pause ? shortPausesInARow + 1 : 0
                    pauseAccepting(for: pause)
                    return
                }
            }
            guard let accepted else { return }
            shortPausesInARow = 0
            hand(accepted)
        }
    }

    /// EMFILE/ENFILE (and the kernel's ENOBUFS/ENOMEM) with nothing to evict: the pending connection
    /// stays queued, so a level-triggered listener would be ready again at once and the loop would spin at
    /// 100% CPU. Stop watching it and try again after `pause`; connections closing meanwhile free
    /// descriptors.
    private func pauseAccepting(for pause: Duration) {
        pausedForDescriptors = true
        do {
            try loops[0].reregister(fd: socket.fd, token: token, interest: [])
        } catch {
            close()
            return
        }
        loops[0].scheduleTimer(token: token, at: loops[0].now + pause)
    }

    static func isOutOfDescriptors(_ code: Int32) -> Bool {
        #if os(Linux)
            code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM
        #else
            code == EMFILE || code == ENFILE
        #endif
    }

    private func hand(_ socket: Socket) {
        let limit = server.configuration.maxConnections
        let before = server.connectionOpened()
        if before >= limit + 64 {
            // Far over the limit: do not even spend a buffer on an answer.
            socket.close()
            server.connectionClosed()
            return
        }
        var index = next
        next = (next + 1) % loops.count
        if before >= EvictionPolicy.threshold(maxConnections: limit), let roomy = server.loopWithMostSilentConnections()
        {
            index = roomy  // near the limit: to a loop that can make room by evicting
        }
        let loop = loops[index]
        let loops = loops
        let server = server
        let label = label
        let gate = gate
        let tls = tls
        let isSecure = isSecure
        let reportedPort = reportedPort
        let handedOver = !loop.inEventLoop
        let start: @Sendable () -> Void = {
            if handedOver { server.handedOver.withLock { $0 -= 1 } }
            let open = server.settledConnections - 1  // before this one, leaving out those still on their way
            // Near the limit: make room by closing connections of this loop that never sent a byte,
            // rather than answering 503 until a flood's idle timeout.
            var closed = 0
            if open >= EvictionPolicy.threshold(maxConnections: limit) {
                let openBefore = open
                closed = loop.evictSilentConnections { candidates in
                    EvictionPolicy.evictions(openBefore: openBefore, maxConnections: limit, candidates: candidates)
                }
            }
            // Over the limit with nothing to close here (earlier newcomers on this loop took its silent
            // connections): another loop that still holds silent connections closes one for it.
            if closed == 0, open >= limit, let other = server.loopWithMostSilentConnections(excluding: loop.index) {
                let otherLoop = loops[other]
                otherLoop.execute { otherLoop.evictSilentConnections { candidates in min(candidates, 1) } }
                closed = 1
            }
            // Room was made for it: served, even if other loops' connections still hold the count over the
            // limit for a moment (the hard cap above, limit + 64, bounds that).
            var session: TLSSession?
            if let tls {
                session = TLSSession(context: tls)
                guard session != nil else {  // out of memory: never served in plain text instead
                    socket.close()
                    server.connectionClosed()
                    return
                }
            }
            let connection = Connection(
                socket: socket, loop: loop, server: server, gate: gate, listenerLabel: label, tls: session,
                isSecure: isSecure, reportedPort: reportedPort)
            connection.start(rejecting: open - closed >= limit && closed == 0 ? Listener.overloadedResponse : nil)
        }
        if handedOver {
            server.handedOver.withLock { $0 += 1 }
            loop.execute(start)
        } else {
            start()
        }
    }

    static let overloadedResponse = HTTPResponse.text(
        "Service Unavailable: too many open connections\n", status: .serviceUnavailable)

    func timerFired() {
        guard pausedForDescriptors, !isClosed else { return }
        pausedForDescriptors = false
        do {
            try loops[0].reregister(fd: socket.fd, token: token, interest: .readable)
        } catch {
            close()
        }
    }

    func shutdown(graceful: Bool) { close() }

    /// Stops accepting and closes the socket, for good.
    func close() {
        isStopped = true
        if let revertTimer { loops[0].cancelTimer(revertTimer) }
        revertTimer = nil
        closeSocket()
    }

    /// Stops accepting and closes the socket, keeping its address for ``reopen()``: new connections are
    /// refused. `reservingPort` keeps the port bound meanwhile (best effort), for going offline; a stop
    /// releases it.
    func closeSocket(reservingPort: Bool = false) {
        if !isClosed {
            isClosed = true
            pausedForDescriptors = false
            loops[0].deregister(fd: socket.fd, token: token)
            socket.close()
        }
        if reservingPort {
            if reservation == nil, let address { reservation = try? Socket.bound(to: address) }
        } else {
            releaseReservation()
        }
    }

    private func releaseReservation() {
        reservation?.close()
        reservation = nil
    }

    /// Listens again on the address it had, after ``closeSocket()``. Throws when the address is taken
    /// meanwhile (`EADDRINUSE`) or the listener stopped (`EBADF`).
    func reopen() throws(SocketError) {
        guard isClosed else { return }
        guard !isStopped, let address else { throw SocketError(errno: EBADF, call: "listen") }
        // Linux lets a second SO_REUSEADDR socket bind and listen beside the reservation (which does not
        // listen), so the port is never free; Darwin does not, so there the reservation goes first.
        do {
            socket = try Socket.listen(on: address, backlog: server.configuration.backlog)
        } catch  where error.errno == EADDRINUSE && reservation != nil {
            releaseReservation()
            socket = try Socket.listen(on: address, backlog: server.configuration.backlog)
        }
        releaseReservation()
        do {
            try register()
        } catch {
            socket.close()
            throw error
        }
        isClosed = false
    }
}
