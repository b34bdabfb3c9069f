/// One accepted TCP connection on one event loop: owns the socket, the parser, the output (``OutputBuffer``)
/// and the request in flight, and carries out what its ``ConnectionStateMachine`` decides.
///
/// The trip of one request, all in this file: ``handle(_:)`` (the selector's event) → ``readAvailable()`` →
/// ``processInput()`` (the parser, the machine) → ``dispatch(_:)`` (the listener's gate, the handler) → the
/// handler answers through ``HTTPResponder`` → ``complete(_:pacing:generation:)`` → ``flush()`` → the machine, which
/// parses the next pipelined request or waits. A body written over time after its head is a
/// ``BodyInProgress`` that owns its state and its steps: ``WrittenStream``, ``PacedBody``, ``PulledBody``,
/// ``WebSocketSession``; it calls back here through the few methods under "For the bodies in progress".
///
/// All methods run on the loop's thread; other threads reach it through ``HTTPResponder``, which hops.
final class Connection: EventLoopChannel, @unchecked Sendable {
    let loop: EventLoop
    let socket: Socket
    let server: ServerContext
    /// The availability switch of the listener that accepted it (offline, hanging).
    let gate: ListenerGate
    /// The request in flight is held unanswered (see `RequestHold.swift`).
    var hold: RequestHold?
    private(set) var token: UInt64 = 0
    private var parser: RequestParser
    private(set) var machine: ConnectionStateMachine
    /// What waits to be written, and how it is written.
    private var output = OutputBuffer()
    private(set) var watchingWritable = false
    /// Reading stopped: too many bytes wait behind the request in flight.
    private var readingPaused = false
    /// The peer shut its sending side: never read again (a level-triggered EOF would fire forever).
    private(set) var inputDone = false
    /// Bytes a client may pipeline behind the request in flight before reading pauses.
    private static let maxBufferedWhileBusy = 1 << 20
    private(set) var isClosed = false
    private var isParsing = false
    /// Increases with each dispatched request; a responder answers only for its own request.
    private(set) var generation: UInt64 = 0
    /// What the request dispatched last needs remembered until its response starts.
    private var inFlight: InFlight?
    /// The timer that delivers the pending response (its delay), writes a paced body's next slice or a
    /// script's next step. Cancelled on close, so a client that left holds neither the answer's memory
    /// nor the server's stop.
    private var responseTimer: EventLoop.TimerHandle?
    /// The response body written over time after its head, if any.
    private(set) var bodyInProgress: BodyInProgress?
    /// After the client's EOF with a response pending: whether, and when next, it is checked for.
    var peerProbe = PeerProbe()
    /// Whether the client sent a byte yet (see ``evictionRank``).
    private(set) var silence = SilenceTally()
    /// The connection's TLS session when it was accepted on an HTTPS listener (Linux): every byte read and
    /// written goes through it (see `Connection+TLS.swift`); or, after a `CONNECT`, the session of the tunnel.
    private(set) var tls: TLSSession?
    /// The tunnel that starts once the `200` to a `CONNECT` is written (see `Connection+Tunnel.swift`).
    var pendingTunnel: (tunnel: HTTPTunnel, target: String)?

    /// What a request needs remembered until its response starts.
    typealias InFlight = (isHead: Bool, version: HTTPVersion)

    /// A response body written over time, after its head; the machine is streaming meanwhile. Each case
    /// owns its state and its steps.
    enum BodyInProgress {
        /// Written by the handler through an ``HTTPResponseStream`` (and its script, if any).
        case written(WrittenStream)
        /// A prepared body, a slice per timer tick (``WritePacing``).
        case paced(PacedBody)
        /// Pieces pulled from an ``HTTPBodySource``.
        case pulled(PulledBody)
        /// Not a body: the WebSocket the connection became after a `101` head.
        case webSocket(WebSocketSession)
    }

    /// `listenerLabel`: the label of the listener that accepted it (`nil` for the primary one), on every request's
    /// ``HTTPRequest/endpoints``; `gate`: that listener's availability (online, offline, hanging).
    /// `tls`: the session of a connection accepted on an HTTPS listener; `isSecure`: its requests say they came
    /// over TLS (also true on Apple platforms, where Network.framework ends TLS before the engine's socket).
    init(
        socket: Socket, loop: EventLoop, server: ServerContext, gate: ListenerGate, listenerLabel: String? = nil,
        tls: TLSSession? = nil, isSecure: Bool = false, reportedPort: Int? = nil
    ) {
        self.socket = socket
        self.loop = loop
        self.server = server
        self.gate = gate
        self.tls = tls
        var endpoints = socket.endpoints(listenerLabel: listenerLabel, isSecure: isSecure || tls != nil)
        if let reportedPort { endpoints?.localPort = reportedPort }
        parser = RequestParser(limits: server.configuration.limits, endpoints: endpoints)
        let timeouts = ConnectionStateMachine.Timeouts(
            headerReadTimeout: server.configuration.headerReadTimeout, idleTimeout: server.configuration.idleTimeout)
        machine = ConnectionStateMachine(timeouts: timeouts, now: loop.now)
    }

    /// Registers with the loop and starts reading. With `rejecting`, answers that response at once and closes.
    func start(rejecting response: HTTPResponse? = nil) {
        do {
            token = try loop.register(self, fd: socket.fd, interest: .readable)
        } catch {
            socket.close()
            isClosed = true
            server.connectionClosed()
            return
        }
        if let response {
            perform(machine.requestFailed(now: loop.now), response: response, context: ResponseContext(close: true))
        } else {
            silence.start(in: server.silentByLoop, loop: loop.index)
            perform(machine.start())
        }
    }

    func timerFired() {
        if !isClosed { perform(machine.timerFired(now: loop.now)) }
    }

    func shutdown(graceful: Bool) {
        guard !isClosed else { return }
        if let session = webSocketSession { return session.shutdown(graceful: graceful, on: self) }
        // A held request is never answered, a written stream may never end: neither holds the stop up.
        if graceful && hold == nil && writtenStream == nil { perform(machine.shutdown()) } else { close() }
    }

    // MARK: - Reading

    /// A readiness event from the selector.
    func handle(_ event: SelectorEvent) {
        if event.hangup && (!event.readable || inputDone) {
            // Both directions are gone (or reset): nothing can be delivered any more. After the EOF was
            // read, a hang-up means the peer reset the connection (our write side is still open).
            close()
            return
        }
        // A hang-up with bytes readable is Darwin's poll reporting the peer's FIN (POLLHUP with POLLIN)
        // before the request is read: read to end of stream, and let `inputEnded` decide.

        if event.writable && watchingWritable { flush() }
        if event.readable && !isClosed { readAvailable() }
    }

    func readAvailable() {
        let result: IOResult<Int>
        do {
            result = try socket.read(into: loop.readBuffer)
        } catch {
            close()
            return
        }
        switch result {
        case .wouldBlock:
            return
        case .processed(0):
            inputEnded()
        case .processed(let count):
            if !silence.hasSentBytes { silence.endSilence(in: server.silentByLoop, loop: loop.index) }
            if let tls { return readDecrypting(count, tls) }
            received(count)
        }
    }

    /// The peer shut its sending side (a TCP end of stream, or TLS's close_notify).
    func inputEnded() {
        inputDone = true
        readingPaused = true
        updateInterest()
        perform(machine.inputEnded())
        probePeerIfWaiting()
    }

    /// `count` bytes of the client's stream (plaintext) are at the start of the loop's read buffer.
    func received(_ count: Int) {
        if let session = webSocketSession { return session.read(count, on: self) }
        if case .lingering = machine.state { return }  // discard what arrives after the final response
        parser.append(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
        if !machine.acceptsInput && parser.bufferedByteCount > Self.maxBufferedWhileBusy {
            readingPaused = true
            updateInterest()
        }
        processInput()
    }

    /// Moves the machine on as the first bytes of a request would: a TLS handshake under way counts against the
    /// header read timeout.
    func handshakeStarted() {
        perform(machine.needsMoreInput(parserIdle: false, inBody: false, now: loop.now))
    }

    /// Parses and dispatches buffered requests while the machine accepts input.
    func processInput() {
        guard !isParsing else { return }  // re-entered from a synchronous response: the loop below continues
        isParsing = true
        defer { isParsing = false }
        if readingPaused && !inputDone && machine.acceptsInput {
            readingPaused = false
            updateInterest()
        }
        while machine.acceptsInput && !isClosed {
            let event: ParseEvent?
            do {
                event = try parser.next()
            } catch {
                reject(error)
                return
            }
            switch event {
            case nil:
                perform(machine.needsMoreInput(parserIdle: parser.isIdle, inBody: parser.isReadingBody, now: loop.now))
                return
            case .expectContinue:
                output.append(contentsOf: ResponseSerializer.continueResponse)
                flush()
            case .request(let request):
                if machine.requestParsed(keepAlive: request.keepAlive) == .dispatch { dispatch(request) }
            }
        }
    }

    /// Hands `request` to the handler, unless the listener's gate holds it (hanging) or refuses it (offline).
    private func dispatch(_ request: HTTPRequest) {
        generation &+= 1
        inFlight = (request.method == .head, request.version)
        var heldBytes = 0
        let admission = gate.admit {
            heldBytes = RequestHold.size(of: request)
            return heldBytes
        }
        switch admission {
        case .dispatch:
            callHandler(request)
        case .refuse:
            close()
        case .hold:
            hold = .request(request, bytes: heldBytes)
            if inputDone { probePeerIfWaiting() }
        }
    }

    /// Hands request `generation`, in flight, to the handler.
    func callHandler(_ request: HTTPRequest) {
        server.handler.handle(request, responder: HTTPResponder(connection: self, generation: generation))
        loop.refreshNow()  // the handler may have taken a while: later deadlines count from now
        if inputDone { probePeerIfWaiting() }  // a pipelined request answered later, after the client's EOF
    }

    private func reject(_ error: ParserError) {
        server.handler.didReject(error, remoteAddress: socket.remoteAddressDescription())
        let response = HTTPResponse.text("\(error.status.reasonPhrase): \(error.description)\n", status: error.status)
        perform(machine.requestFailed(now: loop.now), response: response, context: ResponseContext(close: true))
    }

    // MARK: - Answering

    /// Whether request `generation` awaits its response on this open connection.
    func awaitsResponse(_ generation: UInt64) -> Bool {
        !isClosed && generation == self.generation && machine.awaitsResponse
    }

    /// Request `generation`, while it awaits its response on this open connection.
    func awaitedRequest(_ generation: UInt64) -> InFlight? {
        awaitsResponse(generation) ? inFlight : nil
    }

    /// Prepared bodies from this size on are written from the response's own storage (a shared body of
    /// ``OutputBuffer``), not copied.
    static let sharedBodyThreshold = 64 << 10

    /// Answers request `generation` with `response`, unless it was answered already or the connection closed.
    func complete(_ response: HTTPResponse, generation: UInt64) {
        guard let inFlight = awaitedRequest(generation),
            let close = startResponse(requestedClose: response.headers.containsToken("close", in: "Connection"))
        else { return }
        let context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: close)
        let dateLine = loop.dateCache.currentLine()
        output.append { ResponseSerializer.serialize(response, context: context, dateLine: dateLine, into: &$0) }
        flush()
    }

    /// Answers request `generation` with `prepared`, paced if `pacing` says so (``PacedBody``), unless it was
    /// answered already or the connection closed.
    func complete(_ prepared: PreparedResponse, pacing: WritePacing?, generation: UInt64) {
        if let pacing { return PacedBody.start(prepared, pacing: pacing, on: self, generation: generation) }
        guard let inFlight = awaitedRequest(generation),
            let close = startResponse(requestedClose: prepared.closesConnection)
        else { return }
        let context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: close)
        let dateLine = loop.dateCache.currentLine()
        if prepared.body.count >= Self.sharedBodyThreshold && !context.isHead && !prepared.forbidsBody {
            output.append {
                ResponseSerializer.serializeHead(prepared, context: context, dateLine: dateLine, into: &$0)
            }
            // Head and body are two writes: without TCP_NODELAY, Nagle would hold the body's last partial
            // segment until the client acknowledges the ones before it.
            output.attachSharedBody(prepared.body)
            output.setNoDelay(on: socket)
        } else {
            output.append { ResponseSerializer.serialize(prepared, context: context, dateLine: dateLine, into: &$0) }
        }
        flush()
    }

    /// Ends the connection as `failure` says instead of answering request `generation`.
    func fail(_ failure: ConnectionFailure, generation: UInt64) {
        guard awaitsResponse(generation) else { return }
        switch failure {
        case .reset:
            socket.setLingerZero()
        case .closeWithoutResponse:
            break
        case .rawBytesThenClose(let bytes):
            OutputBuffer.writeWhatTheSocketTakes(bytes, to: socket, through: tls)
            shutdownOutput()
        }
        close()
    }

    /// Runs `body` at `deadline` for request `generation` on the response timer, unless the connection
    /// closes first. Nothing happens when that request was answered (or scheduled) already or the
    /// connection is closed: the first answer wins.
    func scheduleAnswer(at deadline: Instant, generation: UInt64, _ body: @escaping () -> Void) {
        guard awaitsResponse(generation), !hasResponseTimer else { return }
        scheduleResponseTimer(at: deadline, body)
    }

    /// Runs `body` on this connection's loop: at once when called there, else as the loop's next task. The way
    /// in for ``HTTPResponder``, ``HTTPResponseStream`` and ``WebSocketConnection``, which may be used anywhere.
    func onLoop(_ body: @escaping @Sendable (Connection) -> Void) {
        if loop.inEventLoop {
            body(self)
        } else {
            loop.execute { body(self) }
        }
    }

    /// Carries out `action`; a `.write` writes `response`, if any, with `context`.
    private func perform(
        _ action: ConnectionStateMachine.Action, response: HTTPResponse? = nil,
        context: ResponseContext = ResponseContext()
    ) {
        switch action {
        case .none, .dispatch:
            break
        case .armTimer(let deadline):
            loop.scheduleTimer(token: token, at: deadline)
        case .parseNext:
            processInput()
        case .write:
            if let response {
                let dateLine = loop.dateCache.currentLine()
                output.append {
                    ResponseSerializer.serialize(response, context: context, dateLine: dateLine, into: &$0)
                }
                flush()
            }
        case .writeTimeout:
            let timeout = HTTPResponse.text(
                "Request Timeout: the request was not received in time\n", status: .requestTimeout)
            let dateLine = loop.dateCache.currentLine()
            output.append {
                ResponseSerializer.serialize(
                    timeout, context: ResponseContext(close: true), dateLine: dateLine, into: &$0)
            }
            flush()
        case .linger(let deadline):
            shutdownOutput()
            loop.scheduleTimer(token: token, at: deadline)
        case .close:
            close()
        }
    }

    // MARK: - Writing

    /// Writes pending output; on `EAGAIN` waits for writability, when done tells the machine; then lets the
    /// body in progress, if any, go on.
    func flush() {
        guard !isClosed else { return }
        switch output.write(to: socket, through: tls) {
        case .failed:
            return close()
        case .blocked(let progressed):
            watchWritable(true)
            perform(machine.outputBlocked(progressed: progressed, now: loop.now))
        case .drained:
            watchWritable(false)
            if let pending = pendingTunnel.take() { return enterTunnel(pending.tunnel, target: pending.target) }
            perform(machine.outputFlushed(now: loop.now, inputPending: !parser.isIdle))
        }
        guard !isClosed, let bodyInProgress else { return }
        switch bodyInProgress {
        case .pulled(let body): body.flushed(on: self)
        case .webSocket(let session): session.flushed(on: self)
        case .written, .paced: break
        }
    }

    /// Ends the sending side: TLS's close_notify first (what the socket takes of it), then a TCP FIN.
    func shutdownOutput() {
        if let tls {
            tls.shutdown()
            _ = try? tls.sendPending(to: socket)
        }
        socket.shutdownWrite()
    }

    /// Whether `TCP_NODELAY` is set on the socket (see ``OutputBuffer/noDelay``; tests read it).
    var noDelay: Bool { output.noDelay }

    private func watchWritable(_ on: Bool) {
        guard on != watchingWritable, !isClosed else { return }
        watchingWritable = on
        updateInterest()
    }

    private func updateInterest() {
        guard !isClosed else { return }
        var interest: SelectorInterest = readingPaused ? [] : .readable
        if watchingWritable { interest.insert(.writable) }
        do {
            try loop.reregister(fd: socket.fd, token: token, interest: interest)
        } catch {
            close()
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = machine.failed()
        inFlight = nil
        if let responseTimer { loop.cancelTimer(responseTimer) }
        if let timer = peerProbe.checkTimer { loop.cancelTimer(timer) }
        responseTimer = nil
        peerProbe.setCheckTimer(nil)
        switch bodyInProgress.take() {
        case .pulled(let body): body.cancel(server: server)
        case .written(let stream): stream.ended(.closed)
        case .webSocket(let session): session.cutShort(loop: loop)
        case .paced, nil: break
        }
        loop.deregister(fd: socket.fd, token: token, closing: true)
        socket.close()
        output.release()
        releaseHold()
        if silence.isCounted { silence.endSilence(in: server.silentByLoop, loop: loop.index) }
        server.connectionClosed()
    }

    // MARK: - For the bodies in progress: each changes this state one way only

    /// Tells the machine the awaited response is ready: whether the connection closes after it, or nil
    /// when it must not be written.
    private func startResponse(requestedClose: Bool) -> Bool? {
        guard case .write(let close) = machine.responseReady(requestedClose: requestedClose, now: loop.now) else {
            return nil
        }
        inFlight = nil
        return close
    }

    /// Tells the machine the awaited response is the `200` that opens a tunnel: whether the connection closes
    /// instead (the server stops), or nil when it must not be written.
    func startTunnelResponse() -> Bool? {
        guard case .write(let close) = machine.tunnelStarted(now: loop.now) else { return nil }
        inFlight = nil
        return close
    }

    /// Tells the machine the awaited response starts as a stream (paced, pulled, or written piece by piece):
    /// whether the connection closes after it, or nil when it must not be written.
    func startStreamResponse(requestedClose: Bool, framingCloses: Bool) -> Bool? {
        guard
            case .write(let close) = machine.streamStarted(requestedClose: requestedClose, framingCloses: framingCloses)
        else {
            return nil
        }
        inFlight = nil
        return close
    }

    /// A body written over time follows the head just queued: `body`.
    func startBody(_ body: BodyInProgress) {
        bodyInProgress = body
    }

    /// The streamed response is complete: drops its body in progress, tells the machine, writes the rest.
    func finishStreamResponse() {
        bodyInProgress = nil
        perform(machine.streamFinished(now: loop.now))
        flush()
    }

    /// Whether the machine is writing a streamed response (a body in progress).
    var isStreaming: Bool {
        if case .streaming = machine.state { true } else { false }
    }

    /// The connection becomes the tunnel its `200` announced, which is out: TLS from now on if `session` is given,
    /// requests parsed with `endpoints`, and the machine waits for the first.
    func switchToTunnel(session: TLSSession?, endpoints: HTTPEndpoints?) {
        if let session { tls = session }
        parser = RequestParser(limits: server.configuration.limits, endpoints: endpoints)
        perform(machine.outputFlushed(now: loop.now, inputPending: false))
    }

    /// The connection's endpoints, as each request is given them.
    var endpoints: HTTPEndpoints? { parser.endpoints }

    /// A protocol switch after the head just queued: the bytes the client sent after the request, which belong to
    /// the new protocol, and reading resumes if they had paused it. The HTTP parser is done with.
    func takeUnparsedInput() -> [UInt8] {
        defer { parser = RequestParser() }
        if readingPaused && !inputDone {
            readingPaused = false
            updateInterest()
        }
        return Array(parser.unparsedBytes)
    }

    /// Queues `bytes` for the next ``flush()``.
    func enqueue(_ bytes: some Collection<UInt8>) {
        output.append(contentsOf: bytes)
    }

    /// Queues what `write` (a serializer) appends, for the next ``flush()``.
    func enqueue<Result>(_ write: (inout [UInt8]) -> Result) -> Result {
        output.append(write)
    }

    /// Queued bytes not yet written (a shared body aside).
    var queuedOutputCount: Int { output.queuedCount }

    /// Drops the written bytes from the output buffer, so it holds only what waits.
    func compactOutput() {
        output.compact()
    }

    /// Runs `body` at `deadline` on the response timer, which closing the connection cancels.
    func scheduleResponseTimer(at deadline: Instant, _ body: @escaping () -> Void) {
        responseTimer = loop.schedule(at: deadline) { [self] in
            responseTimer = nil
            body()
        }
    }

    /// Whether the response timer is scheduled.
    var hasResponseTimer: Bool { responseTimer != nil }

    /// The paced body being written, if any.
    var pacedBody: PacedBody? {
        if case .paced(let body)? = bodyInProgress { body } else { nil }
    }

    /// The body pulled from an ``HTTPBodySource`` being written, if any.
    var pulledBody: PulledBody? {
        if case .pulled(let body)? = bodyInProgress { body } else { nil }
    }

    /// The body written through an ``HTTPResponseStream`` being written, if any.
    var writtenStream: WrittenStream? {
        if case .written(let stream)? = bodyInProgress { stream } else { nil }
    }

    /// The stream of request `generation`, while it is being written on this open connection.
    func writtenStream(_ generation: UInt64) -> WrittenStream? {
        guard !isClosed, isStreaming, let stream = writtenStream, stream.generation == generation else { return nil }
        return stream
    }

    /// The WebSocket this connection runs, if any.
    var webSocketSession: WebSocketSession? {
        if case .webSocket(let session)? = bodyInProgress { session } else { nil }
    }

    /// The WebSocket of request `generation`, while this connection is open and runs it.
    func webSocketSession(_ generation: UInt64) -> WebSocketSession? {
        guard !isClosed, let session = webSocketSession, session.generation == generation else { return nil }
        return session
    }
}
