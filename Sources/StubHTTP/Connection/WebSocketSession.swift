/// A connection's WebSocket after its `101` head (``HTTPResponder/acceptWebSocket(_:subprotocols:headers:configuration:handler:after:)``):
/// the frame parser and message assembler, how far the closing handshake went, the handler, and the one timer
/// (close deadline, idle timeout, pings). Bytes the connection reads come here, not to the HTTP parser; pings are
/// answered; the closing handshake (either side's), protocol errors (close with 1002, 1007 or 1009), a reader
/// too slow (``HTTPServerConfiguration/maxStreamBacklog``), and the server's stop (1001). The connection's
/// machine stays `streaming` meanwhile, so the HTTP idle timeout does not apply. Loop thread only.
final class WebSocketSession {
    /// The upgrade request's generation on its connection: a ``WebSocketConnection`` acts on this session only.
    let generation: UInt64
    /// What the handler is given.
    let handle: WebSocketConnection
    let configuration: WebSocketConfiguration
    private let handler: any WebSocketHandler
    var parser: WebSocketFrameParser
    var assembler: WebSocketMessageAssembler
    /// A close frame was queued: nothing more is sent.
    var closeSent = false
    /// The closing handshake is over (the client's close answered, or the connection failed): input is dropped,
    /// the write side is shut once the output is flushed, and the connection closes at the client's EOF.
    var finishing = false
    /// The write side was shut (after ``finishing``).
    var writeShut = false
    /// The TCP connection is closed then, if nothing closed it before: a close sent waits this long for its answer.
    var closeDeadline: Instant?
    /// When the client last sent bytes (for ``WebSocketConfiguration/idleTimeout``).
    var lastInput: Instant
    /// When the server last sent a ping of its own (for ``WebSocketConfiguration/pingInterval``).
    var lastPing: Instant
    /// The scheduled timer, cancelled when the connection closes.
    var timer: EventLoop.TimerHandle?
    /// Work the program scheduled for later (``WebSocketConnection/after(_:_:)``), by number: cancelled when the
    /// connection closes, at most ``maxLaterWork`` at once.
    var later: [UInt64: EventLoop.TimerHandle] = [:]
    var nextLater: UInt64 = 0
    /// The most work one connection may have scheduled for later at once: a client sending faster than delayed
    /// replies go out is closed with 1008 past it, so it cannot make the server grow.
    static let maxLaterWork = 4_096
    /// The handler was told the connection closed.
    private var reportedClosed = false

    init(
        generation: UInt64, handle: WebSocketConnection, configuration: WebSocketConfiguration,
        handler: any WebSocketHandler, now: Instant
    ) {
        self.generation = generation
        self.handle = handle
        self.configuration = configuration
        self.handler = handler
        parser = WebSocketFrameParser(limits: configuration.limits)
        assembler = WebSocketMessageAssembler(limits: configuration.limits)
        lastInput = now
        lastPing = now
    }

    /// Tells the handler the connection opened.
    func opened() {
        handler.opened(handle)
    }

    /// Hands the handler a data message.
    func received(_ message: WebSocketMessage) {
        handler.received(message, on: handle)
    }

    /// Tells the handler the connection closed with `code`; only the first call counts.
    func reportClosed(_ code: WebSocketCloseCode, _ reason: String) {
        guard !reportedClosed else { return }
        reportedClosed = true
        handler.closed(handle, code: code, reason: reason)
    }

    /// The earliest instant the timer must fire at, if any: the close deadline; before a close was sent, also
    /// the idle timeout and the next ping.
    var nextDeadline: Instant? {
        var deadlines = [closeDeadline]
        if !closeSent {
            deadlines.append(configuration.idleTimeout.map { lastInput + $0 })
            deadlines.append(configuration.pingInterval.map { lastPing + $0 })
        }
        return deadlines.compactMap { $0 }.min()
    }

    /// Moves the close deadline to `now + wait`, unless it is earlier already.
    func closeBy(_ now: Instant, waiting wait: Duration) {
        let deadline = now + wait
        if let closeDeadline, closeDeadline <= deadline { return }
        closeDeadline = deadline
    }

    /// Fields of the upgrade's answer the server writes itself: those a handler's `headers` may not replace.
    private static let reservedFields = [
        "Upgrade", "Connection", "Sec-WebSocket-Accept", "Sec-WebSocket-Protocol", "Sec-WebSocket-Extensions",
        "Content-Length", "Transfer-Encoding", "Date"
    ]

    /// Appends the `101` head: the handshake's status line and fields, then `extra` (less the reserved fields),
    /// `Date`, and the empty line. No body, no `Content-Length`: the connection speaks WebSocket right after.
    static func appendHead(_ head: HTTPResponse, adding extra: HTTPHeaders, dateLine: [UInt8], into out: inout [UInt8])
    {
        out.append(contentsOf: "HTTP/1.1 \(head.status.code) \(head.status.reasonPhrase)\r\n".utf8)
        let fields =
            Array(head.headers)
            + extra.filter { field in
                !reservedFields.contains { HTTPHeaders.equalsIgnoringCase($0, field.name) }
            }
        for field in fields {
            out.append(contentsOf: "\(field.name): \(field.value)\r\n".utf8)
        }
        out.append(contentsOf: dateLine)
        out.append(contentsOf: "\r\n".utf8)
    }

    // MARK: - Driven by the connection

    /// Answers upgrade `request` for request `generation` on `connection`: the `101` head and a session run by
    /// `handler`, or the handshake's `400`/`426` as an ordinary response.
    static func start(
        _ request: HTTPRequest, subprotocols: [String], headers: HTTPHeaders, configuration: WebSocketConfiguration,
        handler: any WebSocketHandler, on connection: Connection, generation: UInt64
    ) {
        guard connection.awaitsResponse(generation) else { return }
        switch WebSocketHandshake.answer(request, subprotocols: subprotocols) {
        case .reject(let response, _):
            connection.complete(response, generation: generation)
        case .accept(let head, let subprotocol):
            guard connection.startStreamResponse(requestedClose: true, framingCloses: true) != nil else { return }
            let dateLine = connection.loop.dateCache.currentLine()
            connection.enqueue { appendHead(head, adding: headers, dateLine: dateLine, into: &$0) }
            let handle = WebSocketConnection(
                request: request, subprotocol: subprotocol, connection: connection, generation: generation)
            let session = WebSocketSession(
                generation: generation, handle: handle, configuration: configuration, handler: handler,
                now: connection.loop.now)
            connection.startBody(.webSocket(session))
            let early = connection.takeUnparsedInput()
            connection.flush()
            guard connection.webSocketSession === session else { return }
            session.armTimer(on: connection)
            session.opened()
            // Frames the client sent right behind its request, in the same read, were buffered by the HTTP parser.
            if !early.isEmpty && connection.webSocketSession === session { session.consume(early, on: connection) }
            if connection.inputDone && connection.webSocketSession === session { session.peerLeft(on: connection) }
        }
    }

    /// Bytes read: frames parsed, joined into messages and acted on, until more bytes are needed.
    func consume(_ bytes: some Sequence<UInt8>, on connection: Connection) {
        guard !finishing else { return }  // the handshake is over: what still comes is dropped
        lastInput = connection.loop.now
        parser.append(contentsOf: bytes)
        while connection.webSocketSession === self && !finishing {
            let message: WebSocketMessage?
            do throws(WebSocketError) {
                guard let frame = try parser.next() else { return }
                message = try assembler.push(frame)
            } catch {
                fail(error, on: connection)
                return
            }
            if let message { act(on: message, connection) }
        }
    }

    /// Bytes read into the loop's buffer, `count` of them.
    func read(_ count: Int, on connection: Connection) {
        consume(UnsafeRawBufferPointer(rebasing: connection.loop.readBuffer[0..<count]), on: connection)
    }

    private func act(on message: WebSocketMessage, _ connection: Connection) {
        switch message {
        case .text, .binary:
            received(message)
        case .ping(let payload):
            send(.pong(payload), on: connection)
        case .pong:
            break
        case .close(let code, let reason):
            send(.close(code: code), on: connection)  // the echo, unless the server's close went first
            reportClosed(code ?? WebSocketCloseCode(1005), reason)
            finish(on: connection)
        }
    }

    /// Queues `frame` and writes; a reader too far behind is cut. Nothing is sent after a close.
    func send(_ frame: WebSocketFrame, on connection: Connection) {
        guard !closeSent, connection.webSocketSession === self else { return }
        if frame.opcode == .close { closeSent = true }
        connection.enqueue(WebSocketFrameSerializer.header(frame))
        connection.enqueue(frame.payload)
        connection.flush()
        let backlog = connection.server.configuration.maxStreamBacklog
        if !connection.isClosed && connection.queuedOutputCount > backlog {
            reportClosed(
                WebSocketCloseCode(1006), "the client read too slowly: more than \(backlog) bytes waited for it")
            connection.close()
        }
    }

    /// The client broke the protocol: close with the error's code, then end the connection.
    private func fail(_ error: WebSocketError, on connection: Connection) {
        send(.close(code: error.closeCode, reason: error.detail), on: connection)
        reportClosed(error.closeCode, error.detail)
        finish(on: connection)
    }

    /// The closing handshake is over: input is dropped, the write side shut once flushed (the server closes the
    /// TCP connection first, RFC 6455 §7.1.1), and the connection closed at the client's EOF or the deadline.
    private func finish(on connection: Connection) {
        guard connection.webSocketSession === self, !finishing else { return }
        finishing = true
        closeBy(connection.loop.now, waiting: configuration.closeHandshakeTimeout)
        armTimer(on: connection)
        connection.flush()  // shuts the write side once everything is out (``flushed(on:)``)
    }

    /// After each flush: a finishing WebSocket whose output is all written shuts its write side (or closes, after
    /// the client's EOF).
    func flushed(on connection: Connection) {
        guard finishing, !writeShut, connection.queuedOutputCount == 0 else { return }
        writeShut = true
        if connection.inputDone { connection.close() } else { connection.socket.shutdownWrite() }
    }

    /// The client's EOF: the end of a finished handshake, or a client that left without one (1006).
    func peerLeft(on connection: Connection) {
        if finishing && !writeShut { return }  // closes once the output is flushed
        reportClosed(WebSocketCloseCode(1006), "the client closed the TCP connection without a close frame")
        connection.close()
    }

    /// Sends a close (unless one was) and closes the TCP connection if the client has not answered in `wait`.
    func startClosingHandshake(
        code: WebSocketCloseCode, reason: String, waiting wait: Duration, on connection: Connection
    ) {
        connection.loop.refreshNow()
        send(.close(code: code, reason: reason), on: connection)
        guard connection.webSocketSession === self else { return }
        closeBy(connection.loop.now, waiting: wait)
        armTimer(on: connection)
    }

    /// The server stops: a close with 1001, answered within a second at most; not graceful, closed now.
    func shutdown(graceful: Bool, on connection: Connection) {
        guard graceful else {
            reportClosed(WebSocketCloseCode(1006), "the server stopped")
            connection.close()
            return
        }
        let wait = min(configuration.closeHandshakeTimeout, .seconds(1))
        startClosingHandshake(code: .goingAway, reason: "the server is stopping", waiting: wait, on: connection)
    }

    /// The connection closes: the timers are cancelled, and the handler told 1006 unless it heard a code already.
    func cutShort(loop: EventLoop) {
        if let timer { loop.cancelTimer(timer) }
        timer = nil
        for timer in later.values { loop.cancelTimer(timer) }
        later = [:]
        reportClosed(WebSocketCloseCode(1006), "the connection closed without a closing handshake")
    }

    /// Runs `body` at `deadline` while this WebSocket is open (``WebSocketConnection/after(_:_:)``); past
    /// ``maxLaterWork`` pending, closes it with 1008 instead.
    func after(_ deadline: Instant, on connection: Connection, _ body: @escaping @Sendable () -> Void) {
        guard !closeSent else { return }
        guard later.count < Self.maxLaterWork else {
            return startClosingHandshake(
                code: .policyViolation, reason: "too many delayed messages pending",
                waiting: configuration.closeHandshakeTimeout, on: connection)
        }
        nextLater &+= 1
        let number = nextLater
        later[number] = connection.loop.schedule(at: deadline) { [self] in
            later[number] = nil
            body()
        }
    }

    /// Schedules the timer at the next deadline, replacing the one scheduled.
    private func armTimer(on connection: Connection) {
        let loop = connection.loop
        if let timer { loop.cancelTimer(timer) }
        timer = nil
        guard let deadline = nextDeadline else { return }
        timer = loop.schedule(at: deadline) { [self] in
            timer = nil
            timerFired(on: connection)
        }
    }

    private func timerFired(on connection: Connection) {
        guard connection.webSocketSession === self else { return }
        connection.loop.refreshNow()
        let now = connection.loop.now, configuration = configuration
        if let closeDeadline, closeDeadline <= now {
            let reason =
                finishing
                ? "the client did not close the TCP connection in time"
                : "the client did not answer the close within \(configuration.closeHandshakeTimeout)"
            reportClosed(WebSocketCloseCode(1006), reason)
            connection.close()
            return
        }
        if !closeSent, let idle = configuration.idleTimeout, lastInput + idle <= now {
            startClosingHandshake(
                code: .goingAway, reason: "idle for \(idle)", waiting: configuration.closeHandshakeTimeout,
                on: connection)
            return
        }
        if !closeSent, let interval = configuration.pingInterval, lastPing + interval <= now {
            lastPing = now
            send(.ping(), on: connection)
        }
        if connection.webSocketSession === self { armTimer(on: connection) }
    }
}
