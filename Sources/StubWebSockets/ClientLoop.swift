import StubHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connection's thread: connects, sends the upgrade request and checks the answer, then reads frames (answering
/// pings, handing messages to callers, echoing the server's close), writes what callers queued, and keeps every
/// deadline, all in `poll(2)` on the socket and the waker. Only this thread touches the socket, the parser and
/// the write queue; it ends when the connection does.
///
/// A thread of its own, not Swift's cooperative pool: the waits are bounded by the callers' timeouts, not short,
/// and a DNS lookup (`localhost`) blocks; a thread costs 512 KiB of address space per open connection, which a
/// test's few connections can pay.
final class ClientLoop {
    let connection: ClientConnection
    let transport: any ClientTransport
    private var parser: WebSocketFrameParser
    private var assembler: WebSocketMessageAssembler
    /// Frames taken from callers, oldest first; the first may be partly written.
    private var queue: [OutgoingFrame] = []
    /// Whether the client's close frame is queued (or written): nothing may follow it.
    private var closeSent = false
    /// The server's close frame, once read.
    private var serverClose: StubWebSocketClient.Close?
    /// Whether the client sent its close before the server's came.
    private var closedByClient = false
    /// When the server must have closed the TCP connection after the closing handshake.
    private var tcpEndDeadline: ContinuousClock.Instant?
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)

    private var url: String { connection.handshake.url.absoluteString }
    private var configuration: StubWebSocketClient.Configuration { connection.configuration }

    init(connection: ClientConnection, transport: any ClientTransport) {
        self.connection = connection
        self.transport = transport
        let limit = connection.configuration.maxMessageBytes
        let limits = WebSocketLimits(maxFramePayloadBytes: limit, maxMessageBytes: limit, requireMasking: false)
        parser = WebSocketFrameParser(limits: limits)
        assembler = WebSocketMessageAssembler(limits: limits)
    }

    // MARK: - Waiting

    private enum Readiness {
        /// The socket has events (or the waker woke the loop, with none): look again.
        case ready(socket: Int16)
        case failed(StubWebSocketClient.Failure)
    }

    /// Waits in `poll` for `events` on the socket, the waker, or `deadline`.
    private func waitForEvents(_ events: Int16, until deadline: ContinuousClock.Instant?) -> Readiness {
        var descriptors = [
            pollfd(fd: transport.descriptor, events: events, revents: 0),
            pollfd(fd: connection.waker.readFD, events: Int16(POLLIN), revents: 0)
        ]
        let timeout = deadline.map { Self.milliseconds(until: $0) } ?? -1
        let count = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
        if count < 0 {
            let code = errno
            guard code == EINTR else {
                return .failed(failure(.connectionLost, "was given up: \(SocketError(errno: code, call: "poll"))"))
            }
            return .ready(socket: 0)
        }
        if descriptors[1].revents != 0 { connection.waker.drain() }
        return .ready(socket: descriptors[0].revents)
    }

    /// Milliseconds from now until `deadline`, rounded up, within 0...Int32.max.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return .max }
        return Int32(clamping: milliseconds.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    private func failure(_ kind: StubWebSocketClient.Failure.Kind, _ what: String) -> StubWebSocketClient.Failure {
        connection.handshake.failure(kind, what)
    }

    // MARK: - Opening

    /// Makes the TCP connection, sends the upgrade request and reads the answer, by `deadline`; on success
    /// the frames that came behind the `101` are in the parser.
    func open(deadline: ContinuousClock.Instant, timeout: Duration, connected: Bool) -> Result<
        ClientState.Opened, StubWebSocketClient.Failure
    > {
        let endpoint = connection.handshake.endpoint
        if !connected {
            if let failure = waitOpening(
                Int16(POLLOUT), deadline: deadline,
                timeout: {
                    "could not be reached within \(timeout.inWords): no TCP connection to \(endpoint.hostField)"
                })
            {
                return .failure(failure)
            }
            if let error = transport.connectionError() {
                return .failure(failure(.connectionFailed, "could not be reached: \(error)"))
            }
        }
        let request = connection.handshake.request
        var written = 0
        while written < request.count {
            do {
                switch try request[written...].withUnsafeBytes({ try transport.write($0) }) {
                case .processed(let count): written += count
                case .wouldBlock:
                    if let failure = waitOpening(
                        Int16(POLLOUT), deadline: deadline,
                        timeout: {
                            "did not take the upgrade request within \(timeout.inWords)"
                        })
                    {
                        return .failure(failure)
                    }
                }
            } catch {
                return .failure(
                    failure(.connectionLost, "closed the connection before taking the upgrade request: \(error)"))
            }
        }
        var received: [UInt8] = []
        var headEnd: Int?
        while headEnd == nil {
            switch readOpening(
                into: &received, deadline: deadline,
                waiting: { count in
                    "did not answer the WebSocket upgrade within \(timeout.inWords)"
                        + (count == 0 ? "" : " (\(count) bytes of a response head came)")
                })
            {
            case .failure(let failure): return .failure(failure)
            case .success(false):
                return .failure(
                    failure(.connectionLost, "closed the connection without answering the WebSocket upgrade"))
            case .success(true):
                headEnd = ClientHandshake.headEnd(in: received)
                if headEnd == nil, received.count > ClientHandshake.maxHeadBytes {
                    return .failure(failure(.invalidHandshake, "answered with a response head over 64 KiB"))
                }
            }
        }
        guard let headEnd else { return .failure(failure(.invalidHandshake, "answered nothing")) }
        let head: ClientHandshake.ResponseHead
        do {
            head = try connection.handshake.parseHead(received[..<headEnd])
        } catch {
            return .failure(error)
        }
        guard head.status == 101 else { return .failure(rejected(head, received, headEnd, deadline)) }
        do {
            let subprotocol = try connection.handshake.verify(head)
            parser.append(contentsOf: received[headEnd...])
            return .success(ClientState.Opened(subprotocol: subprotocol, headers: head.fields))
        } catch {
            return .failure(error)
        }
    }

    /// The failure for an answer other than `101`, with the first 4 KiB of its body (read until `deadline`).
    private func rejected(
        _ head: ClientHandshake.ResponseHead, _ received: [UInt8], _ headEnd: Int, _ deadline: ContinuousClock.Instant
    ) -> StubWebSocketClient.Failure {
        var received = received
        let wanted = min(head.contentLength ?? 0, 4096)
        while received.count - headEnd < wanted {
            guard case .success(true) = readOpening(into: &received, deadline: deadline, waiting: { _ in "" }) else {
                break
            }
        }
        let body = String(decoding: received[headEnd...].prefix(4096), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let status = head.statusLine.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init)
        return failure(
            .handshakeRejected(status: head.status),
            "answered \(status ?? String(head.status)), not 101 Switching Protocols"
                + (body.isEmpty ? "" : ":\n\(body)"))
    }

    /// Waits for `events` while opening; a failure when `deadline` passed (`timeout` says what was waited for) or
    /// the connect was abandoned.
    private func waitOpening(
        _ events: Int16, deadline: ContinuousClock.Instant, timeout: () -> String
    ) -> StubWebSocketClient.Failure? {
        while true {
            if let abandoned = connection.state.withLock({ $0.abandoned }) { return abandoned }
            guard ContinuousClock.now < deadline else { return failure(.timedOut, timeout()) }
            switch waitForEvents(events, until: deadline) {
            case .failed(let failure): return failure
            case .ready(let socket) where socket != 0: return nil
            case .ready: continue
            }
        }
    }

    /// Reads what is there into `received` while opening: `true` when bytes came, `false` at the end of the
    /// stream; a failure at the deadline (`waiting`, given how many bytes came, says what for), on abandonment, or
    /// when the read fails.
    private func readOpening(
        into received: inout [UInt8], deadline: ContinuousClock.Instant, waiting: (Int) -> String
    ) -> Result<Bool, StubWebSocketClient.Failure> {
        let count = received.count
        while true {
            do {
                switch try readBuffer.withUnsafeMutableBytes({ try transport.read(into: $0) }) {
                case .processed(0): return .success(false)
                case .processed(let count):
                    received += readBuffer[0..<count]
                    return .success(true)
                case .wouldBlock:
                    if let failure = waitOpening(Int16(POLLIN), deadline: deadline, timeout: { waiting(count) }) {
                        return .failure(failure)
                    }
                }
            } catch {
                return .failure(failure(.connectionLost, "failed while answering the WebSocket upgrade: \(error)"))
            }
        }
    }

    // MARK: - Running

    /// Runs the open connection until it ends; returns why it ended (``StubWebSocketClient/Failure/Kind/closed(code:reason:)``
    /// after a closing handshake).
    func run() -> StubWebSocketClient.Failure {
        if let ended = handleFrames() { return ended }  // the frames that came behind the 101
        while true {
            let now = ContinuousClock.now
            var resuming: [() -> Void] = []
            let taken = connection.state.withLock {
                state -> Result<ContinuousClock.Instant?, StubWebSocketClient.Failure> in
                if let abandoned = state.abandoned { return .failure(abandoned) }
                if let fatal = state.expire(at: now, resuming: &resuming) { return .failure(fatal) }
                take(&state, resuming: &resuming)
                return .success(state.nearestDeadline)
            }
            for resume in resuming { resume() }
            let waiterDeadline: ContinuousClock.Instant?
            switch taken {
            case .failure(let failure): return failConnection(code: .goingAway, reason: "", failure)
            case .success(let deadline): waiterDeadline = deadline
            }
            if let tcpEndDeadline, tcpEndDeadline <= now { return closedFailure() }
            if let error = flush() { return writeFailed(error) }
            let deadline = [waiterDeadline, tcpEndDeadline].compactMap { $0 }.min()
            let wantsOutput = !queue.isEmpty || transport.wantsWritable
            switch waitForEvents(Int16(POLLIN) | (wantsOutput ? Int16(POLLOUT) : 0), until: deadline) {
            case .failed(let failure): return failure
            case .ready(let socket):
                if socket & ~Int16(POLLOUT) != 0, let ended = readAvailable() { return ended }
            }
        }
    }

    /// Moves what callers queued to the write queue (under the state's lock): messages and pings unless the
    /// client's close went first (their senders then fail), and the close the test asked for.
    private func take(_ state: inout ClientState, resuming: inout [() -> Void]) {
        for frame in state.outgoing {
            guard closeSent else {
                queue.append(frame)
                continue
            }
            guard case .sent(let id) = frame.kind, let index = state.senders.firstIndex(where: { $0.id == id }) else {
                continue
            }
            let sender = state.senders.remove(at: index)
            let refusal = state.refusal(sending: "a message", url: url)
            resuming.append { sender.resume(.failure(refusal ?? sender.timeout)) }
        }
        state.outgoing = []
        if let request = state.closeRequest, !closeSent {
            state.closeQueued = true
            closedByClient = serverClose == nil
            queueClose(code: WebSocketCloseCode(UInt16(clamping: request.code)), reason: request.reason)
        }
    }

    private func queueClose(code: WebSocketCloseCode?, reason: String) {
        closeSent = true
        let frame = ClientConnection.masked(WebSocketFrame.close(code: code, reason: reason))
        queue.append(OutgoingFrame(kind: .close, bytes: WebSocketFrameSerializer.serialize(frame)))
    }

    /// Writes queued frames until the socket takes no more; resumes each sender whose frame is written. The
    /// error when a write fails.
    private func flush() -> (any Error)? {
        while let first = queue.first {
            let result: IOResult<Int>
            do {
                result = try first.bytes[first.written...].withUnsafeBytes { try transport.write($0) }
            } catch {
                return error
            }
            guard case .processed(let count) = result else { return nil }
            queue[0].written += count
            guard queue[0].written == first.bytes.count else { continue }
            queue.removeFirst()
            guard case .sent(let id) = first.kind else { continue }
            let sender = connection.state.withLock { state in
                state.senders.firstIndex { $0.id == id }.map { state.senders.remove(at: $0) }
            }
            sender?.resume(.success(()))
        }
        return nil
    }

    /// Why the connection ended when a write failed: the server closed or reset it, maybe after a close frame
    /// still unread (a server that closes with unread bytes resets the connection), so that is read first.
    private func writeFailed(_ error: any Error) -> StubWebSocketClient.Failure {
        if serverClose == nil, let ended = readAvailable() { return ended }
        guard serverClose == nil else { return closedFailure() }
        return failure(.connectionLost, "failed while the client was writing: \(error)")
    }

    /// Reads what the socket has (up to 1 MiB a turn, then callers' work is looked at again) and handles its
    /// frames; returns why the connection ended, if it did.
    private func readAvailable() -> StubWebSocketClient.Failure? {
        for _ in 0..<16 {
            let result: IOResult<Int>
            do {
                result = try readBuffer.withUnsafeMutableBytes { try transport.read(into: $0) }
            } catch {
                guard serverClose == nil else { return closedFailure() }
                return failure(.connectionLost, "was reset by the server without a close frame (\(error))")
            }
            switch result {
            case .wouldBlock: return nil
            case .processed(0):
                guard serverClose == nil else { return closedFailure() }
                return failure(
                    .connectionLost, "was closed by the server without a close frame (the TCP connection ended)")
            case .processed(let count):
                parser.append(contentsOf: readBuffer[0..<count])
                if let ended = handleFrames() { return ended }
            }
        }
        return nil
    }

    /// Handles every complete frame in the parser; returns why the connection ended, if it did.
    private func handleFrames() -> StubWebSocketClient.Failure? {
        do {
            while let frame = try parser.next() {
                guard frame.maskingKey == nil else {
                    return failConnection(
                        code: .protocolError, reason: "a masked frame from the server",
                        failure(
                            .protocolError,
                            "sent a masked \(frame.opcode) frame (a server's frames are never masked: RFC 6455 §5.1)"))
                }
                guard let message = try assembler.push(frame) else { continue }
                if let ended = handle(message) { return ended }
            }
            return nil
        } catch {
            switch error.kind {
            case .frameTooLarge, .messageTooLarge:
                return failConnection(
                    code: error.closeCode, reason: "message too big",
                    failure(
                        .messageTooLarge, "sent \(error.detail) (StubWebSocketClient.Configuration.maxMessageBytes)"))
            case .reservedBits, .reservedOpcode, .invalidControlFrame, .unmaskedFrame, .invalidLength,
                .unexpectedContinuation, .expectedContinuation, .invalidUTF8, .invalidClosePayload:
                return failConnection(
                    code: error.closeCode, reason: error.detail,
                    failure(.protocolError, "broke RFC 6455: \(error.detail)"))
            }
        }
    }

    private func handle(_ message: WebSocketMessage) -> StubWebSocketClient.Failure? {
        switch message {
        case .text(let text): return serverClose == nil ? deliver(.text(text)) : nil
        case .binary(let bytes): return serverClose == nil ? deliver(.binary(bytes)) : nil
        case .ping(let payload):
            guard !closeSent else { return nil }
            let pong = WebSocketFrameSerializer.serialize(ClientConnection.masked(.pong(payload)))
            // One unwritten pong at most: a newer ping's answers the older (RFC 6455 §5.5.3 allows it).
            if let index = queue.lastIndex(where: { $0.kind == .pong && $0.written == 0 }) {
                queue[index].bytes = pong
            } else {
                queue.append(OutgoingFrame(kind: .pong, bytes: pong))
            }
            return nil
        case .pong(let payload):
            let pinger = connection.state.withLock { state in
                state.pingers.firstIndex { $0.payload == payload }.map { state.pingers.remove(at: $0).waiter }
            }
            pinger?.resume(.success(()))
            return nil
        case .close(let code, let reason):
            let close = StubWebSocketClient.Close(code: code.map { Int($0.rawValue) } ?? 1005, reason: reason)
            serverClose = close
            connection.state.withLock { state in
                state.serverClose = close
                state.closeQueued = true
            }
            if !closeSent { queueClose(code: code, reason: "") }  // the echo: the server's code (RFC 6455 §5.5.1)
            tcpEndDeadline = ContinuousClock.now + configuration.closeTimeout
            return nil
        }
    }

    /// Hands a message to a waiting receiver or keeps it; fails the connection past the bound in bytes.
    private func deliver(_ message: StubWebSocketClient.Message) -> StubWebSocketClient.Failure? {
        var resuming: [() -> Void] = []
        let limit = configuration.maxUnreceivedBytes
        let kept = connection.state.withLock { $0.deliver(message, limit: limit, resuming: &resuming) }
        for resume in resuming { resume() }
        guard !kept else { return nil }
        return failConnection(
            code: .policyViolation, reason: "the test did not receive its messages",
            failure(
                .unreceivedLimitExceeded,
                "sent more than \(limit) bytes of messages that the test did not take with receive(timeout:) "
                    + "(StubWebSocketClient.Configuration.maxUnreceivedBytes); the client closed it with 1008"))
    }

    /// Fails the connection (RFC 6455 §7.1.7): sends a close frame with `code` unless one went already, writes
    /// what the socket takes at once, and returns `failure` for the connection to end with.
    private func failConnection(
        code: WebSocketCloseCode, reason: String, _ failure: StubWebSocketClient.Failure
    ) -> StubWebSocketClient.Failure {
        if !closeSent { queueClose(code: code, reason: reason) }
        _ = flush()
        return failure
    }

    /// How a connection ends after its closing handshake.
    private func closedFailure() -> StubWebSocketClient.Failure {
        let close = serverClose ?? StubWebSocketClient.Close(code: 1005)
        let detail =
            closedByClient
            ? "is closed: this client closed it, and the server answered \(close)"
            : "was closed by the server with \(close)"
        return failure(.closed(code: close.code, reason: close.reason), detail)
    }
}
