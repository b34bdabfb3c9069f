/// A connection in WebSocket mode, after ``HTTPResponder/acceptWebSocket(_:subprotocols:headers:configuration:handler:after:)``
/// wrote the `101` head: bytes read go to the session's frame parser, not the HTTP parser; pings are answered;
/// the closing handshake (either side's), protocol errors (close with 1002, 1007 or 1009), a reader too slow
/// (``HTTPServerConfiguration/maxStreamBacklog``), and the server's stop (1001). The machine stays
/// `streaming` meanwhile, so the HTTP idle timeout does not apply. Loop thread only.
extension Connection {
    /// The WebSocket this connection runs, if any.
    var webSocketSession: WebSocketSession? {
        if case .webSocket(let session)? = bodyInProgress { session } else { nil }
    }

    /// The WebSocket of request `generation`, while this connection is open and runs it.
    private func webSocketSession(_ generation: UInt64) -> WebSocketSession? {
        guard !isClosed, let session = webSocketSession, session.generation == generation else { return nil }
        return session
    }

    func startWebSocket(
        _ request: HTTPRequest, subprotocols: [String], headers: HTTPHeaders, configuration: WebSocketConfiguration,
        handler: any WebSocketHandler, generation: UInt64
    ) {
        guard awaitsResponse(generation) else { return }
        switch WebSocketHandshake.answer(request, subprotocols: subprotocols) {
        case .reject(let response, _):
            complete(.response(response), generation: generation)
        case .accept(let head, let subprotocol):
            guard startStreamResponse(requestedClose: true, framingCloses: true) != nil else { return }
            let dateLine = loop.dateCache.currentLine()
            enqueue { WebSocketSession.appendHead(head, adding: headers, dateLine: dateLine, into: &$0) }
            let handle = WebSocketConnection(
                request: request, subprotocol: subprotocol, connection: self, generation: generation)
            let session = WebSocketSession(
                generation: generation, handle: handle, configuration: configuration, handler: handler, now: loop.now)
            startBody(.webSocket(session))
            let early = takeUnparsedInput()
            flush()
            guard webSocketSession === session else { return }
            armWebSocketTimer(session)
            session.opened()
            // Frames the client sent right behind its request, in the same read, were buffered by the HTTP parser.
            if !early.isEmpty && webSocketSession === session { webSocketReceived(early, session) }
            if inputDone && webSocketSession === session { webSocketPeerLeft(session) }
        }
    }

    /// Bytes read: frames parsed, joined into messages and acted on, until more bytes are needed.
    func webSocketReceived(_ bytes: some Sequence<UInt8>, _ session: WebSocketSession) {
        guard !session.finishing else { return }  // the handshake is over: what still comes is dropped
        session.lastInput = loop.now
        session.parser.append(contentsOf: bytes)
        while webSocketSession === session && !session.finishing {
            let message: WebSocketMessage?
            do throws(WebSocketError) {
                guard let frame = try session.parser.next() else { return }
                message = try session.assembler.push(frame)
            } catch {
                failWebSocket(session, error)
                return
            }
            if let message { act(on: message, session) }
        }
    }

    /// Bytes read into the loop's buffer, `count` of them.
    func webSocketRead(_ count: Int, _ session: WebSocketSession) {
        webSocketReceived(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]), session)
    }

    private func act(on message: WebSocketMessage, _ session: WebSocketSession) {
        switch message {
        case .text, .binary:
            session.received(message)
        case .ping(let payload):
            sendWebSocketFrame(.pong(payload), session)
        case .pong:
            break
        case .close(let code, let reason):
            sendWebSocketFrame(.close(code: code), session)  // the echo, unless the server's close went first
            session.reportClosed(code ?? WebSocketCloseCode(1005), reason)
            finishWebSocket(session)
        }
    }

    /// Queues `frame` and writes; a reader too far behind is cut. Nothing is sent after a close.
    private func sendWebSocketFrame(_ frame: WebSocketFrame, _ session: WebSocketSession) {
        guard !session.closeSent, webSocketSession === session else { return }
        if frame.opcode == .close { session.closeSent = true }
        enqueue(WebSocketFrameSerializer.header(frame))
        enqueue(frame.payload)
        flush()
        let backlog = server.configuration.maxStreamBacklog
        if !isClosed && queuedOutputCount > backlog {
            session.reportClosed(
                WebSocketCloseCode(1006), "the client read too slowly: more than \(backlog) bytes waited for it")
            close()
        }
    }

    /// The client broke the protocol: close with the error's code, then end the connection.
    private func failWebSocket(_ session: WebSocketSession, _ error: WebSocketError) {
        sendWebSocketFrame(.close(code: error.closeCode, reason: error.detail), session)
        session.reportClosed(error.closeCode, error.detail)
        finishWebSocket(session)
    }

    /// The closing handshake is over: input is dropped, the write side shut once flushed (the server closes the
    /// TCP connection first, RFC 6455 §7.1.1), and the connection closed at the client's EOF or the deadline.
    private func finishWebSocket(_ session: WebSocketSession) {
        guard webSocketSession === session, !session.finishing else { return }
        session.finishing = true
        session.closeBy(loop.now, waiting: session.configuration.closeHandshakeTimeout)
        armWebSocketTimer(session)
        flush()  // shuts the write side once everything is out (``webSocketFlushed(_:)``)
    }

    /// After each flush: a finishing WebSocket whose output is all written shuts its write side (or closes, after
    /// the client's EOF).
    func webSocketFlushed(_ session: WebSocketSession) {
        guard session.finishing, !session.writeShut, queuedOutputCount == 0 else { return }
        session.writeShut = true
        if inputDone { close() } else { socket.shutdownWrite() }
    }

    /// The client's EOF: the end of a finished handshake, or a client that left without one (1006).
    func webSocketPeerLeft(_ session: WebSocketSession) {
        if session.finishing && !session.writeShut { return }  // closes once the output is flushed
        session.reportClosed(WebSocketCloseCode(1006), "the client closed the TCP connection without a close frame")
        close()
    }

    func webSocketSend(_ frame: WebSocketFrame, generation: UInt64) {
        guard let session = webSocketSession(generation) else { return }
        sendWebSocketFrame(frame, session)
    }

    func webSocketClose(code: WebSocketCloseCode, reason: String, generation: UInt64) {
        guard let session = webSocketSession(generation) else { return }
        startClosingHandshake(session, code: code, reason: reason, waiting: session.configuration.closeHandshakeTimeout)
    }

    /// Sends a close (unless one was) and closes the TCP connection if the client has not answered in `wait`.
    private func startClosingHandshake(
        _ session: WebSocketSession, code: WebSocketCloseCode, reason: String, waiting wait: Duration
    ) {
        loop.refreshNow()
        sendWebSocketFrame(.close(code: code, reason: reason), session)
        guard webSocketSession === session else { return }
        session.closeBy(loop.now, waiting: wait)
        armWebSocketTimer(session)
    }

    /// The server stops: a close with 1001, answered within a second at most; not graceful, closed now.
    func webSocketShutdown(_ session: WebSocketSession, graceful: Bool) {
        guard graceful else {
            session.reportClosed(WebSocketCloseCode(1006), "the server stopped")
            close()
            return
        }
        let wait = min(session.configuration.closeHandshakeTimeout, .seconds(1))
        startClosingHandshake(session, code: .goingAway, reason: "the server is stopping", waiting: wait)
    }

    /// The connection closes: the timers are cancelled, and the handler told 1006 unless it heard a code already.
    func webSocketCutShort(_ session: WebSocketSession) {
        if let timer = session.timer { loop.cancelTimer(timer) }
        session.timer = nil
        for timer in session.later.values { loop.cancelTimer(timer) }
        session.later = [:]
        session.reportClosed(WebSocketCloseCode(1006), "the connection closed without a closing handshake")
    }

    /// Runs `body` at `deadline` while the WebSocket of `generation` is open (``WebSocketConnection/after(_:_:)``);
    /// past ``WebSocketSession/maxLaterWork`` pending, closes it with 1008 instead.
    func webSocketAfter(_ deadline: Instant, generation: UInt64, _ body: @escaping @Sendable () -> Void) {
        guard let session = webSocketSession(generation), !session.closeSent else { return }
        guard session.later.count < WebSocketSession.maxLaterWork else {
            return startClosingHandshake(
                session, code: .policyViolation, reason: "too many delayed messages pending",
                waiting: session.configuration.closeHandshakeTimeout)
        }
        session.nextLater &+= 1
        let number = session.nextLater
        session.later[number] = loop.schedule(at: deadline) {
            session.later[number] = nil
            body()
        }
    }

    /// Schedules the session's timer at its next deadline, replacing the one scheduled.
    private func armWebSocketTimer(_ session: WebSocketSession) {
        if let timer = session.timer { loop.cancelTimer(timer) }
        session.timer = nil
        guard let deadline = session.nextDeadline else { return }
        session.timer = loop.schedule(at: deadline) { [self] in
            session.timer = nil
            webSocketTimerFired(session)
        }
    }

    private func webSocketTimerFired(_ session: WebSocketSession) {
        guard webSocketSession === session else { return }
        loop.refreshNow()
        let now = loop.now, configuration = session.configuration
        if let deadline = session.closeDeadline, deadline <= now {
            let reason =
                session.finishing
                ? "the client did not close the TCP connection in time"
                : "the client did not answer the close within \(configuration.closeHandshakeTimeout)"
            session.reportClosed(WebSocketCloseCode(1006), reason)
            close()
            return
        }
        if !session.closeSent, let idle = configuration.idleTimeout, session.lastInput + idle <= now {
            startClosingHandshake(
                session, code: .goingAway, reason: "idle for \(idle)", waiting: configuration.closeHandshakeTimeout)
            return
        }
        if !session.closeSent, let interval = configuration.pingInterval, session.lastPing + interval <= now {
            session.lastPing = now
            sendWebSocketFrame(.ping(), session)
        }
        if webSocketSession === session { armWebSocketTimer(session) }
    }
}
