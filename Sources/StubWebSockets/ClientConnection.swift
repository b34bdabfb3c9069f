import StubHTTP

/// One client connection: the state callers and the connection's thread share, and the calls callers make.
/// The thread (``ClientConnection+Loop.swift``) does all the I/O and all the timing; a caller only queues work,
/// wakes the thread, and suspends until the thread (or its own cancellation) resumes it. Nothing here blocks.
final class ClientConnection: Sendable {
    let handshake: ClientHandshake
    let configuration: StubWebSocketClient.Configuration
    let state = LockedValue(ClientState())
    /// Interrupts the thread's `poll` when a caller queued work or gave up.
    let waker: Waker

    init(handshake: ClientHandshake, configuration: StubWebSocketClient.Configuration) throws(StubWebSocketClient
        .Failure)
    {
        self.handshake = handshake
        self.configuration = configuration
        do {
            waker = try Waker()  // an eventfd on Linux (one descriptor), a pipe elsewhere
        } catch {
            throw handshake.failure(.connectionFailed, "could not be opened: \(error)")
        }
    }

    /// Starts the connection's thread, which connects within `timeout` and then resumes `connecting`.
    func start(
        timeout: Duration,
        _ connecting: CheckedContinuation<Result<ClientState.Opened, StubWebSocketClient.Failure>, Never>
    ) {
        state.withLock { $0.connecting = connecting }
        let deadline = ContinuousClock.now + timeout
        do {
            // 512 KiB, Darwin's default for a secondary thread, on every platform: the thread holds no deep calls.
            let thread = try ThreadHandle.spawn(stackSize: 512 << 10) { [self] in
                ThreadHandle.nameCurrent("stub-websocket")
                run(deadline: deadline, timeout: timeout)
            }
            thread.detach()
        } catch {
            waker.close()
            finish(handshake.failure(.connectionFailed, "could not be opened: no thread for it (\(error))"))
        }
    }

    /// The thread's body: open by `deadline`, run until the connection ends, then close everything.
    private func run(deadline: ContinuousClock.Instant, timeout: Duration) {
        let ended = runConnection(deadline: deadline, timeout: timeout)
        finish(ended)
        state.withLock { state in
            state.wakerClosed = true
            waker.close()
        }
    }

    /// Connects and runs the connection; returns why it ended.
    private func runConnection(deadline: ContinuousClock.Instant, timeout: Duration) -> StubWebSocketClient.Failure {
        let endpoint = handshake.endpoint
        if let abandoned = state.withLock({ $0.abandoned }) { return abandoned }
        guard let address = SocketAddress.resolve(host: endpoint.host, port: endpoint.port) else {
            return handshake.failure(
                .connectionFailed, "could not be reached: no address for the host \(endpoint.host)")
        }
        let transport: TCPTransport
        let connected: Bool
        do {
            let (socket, done) = try Socket.connecting(to: address)
            (transport, connected) = (TCPTransport(socket: socket), done)
        } catch {
            return handshake.failure(.connectionFailed, "could not be reached: \(error)")
        }
        defer { transport.close() }
        let loop = ClientLoop(connection: self, transport: transport)
        let opened: ClientState.Opened
        switch loop.open(deadline: deadline, timeout: timeout, connected: connected) {
        case .failure(let failure): return failure
        case .success(let value): opened = value
        }
        let connecting: CheckedContinuation<Result<ClientState.Opened, StubWebSocketClient.Failure>, Never>? =
            state.withLock { state in
                guard state.abandoned == nil else { return nil }
                state.phase = .open
                defer { state.connecting = nil }
                return state.connecting
            }
        guard let connecting else {
            return state.withLock { $0.abandoned } ?? handshake.failure(.cancelled, "was abandoned")
        }
        connecting.resume(returning: .success(opened))
        return loop.run()
    }

    /// Wakes the thread, unless it has ended (its descriptors are then closed, maybe reused by others).
    func wake() {
        state.withLock { if !$0.wakerClosed { waker.wake() } }
    }

    /// Ends the connection for the caller (released, or its connect cancelled): the thread stops at once.
    func abandon(_ why: StubWebSocketClient.Failure) {
        state.withLock { state in
            if state.abandoned == nil { state.abandoned = why }
            if !state.wakerClosed { waker.wake() }
        }
    }

    /// Ends the connection's state with `failure` and resumes every waiter.
    func finish(_ failure: StubWebSocketClient.Failure) {
        var resuming: [() -> Void] = []
        state.withLock { $0.end(failure, resuming: &resuming) }
        for resume in resuming { resume() }
    }

    /// Suspends until the thread (or a cancellation) resumes the waiter `register` makes, or returns what
    /// `register` answers at once. `register` runs under the lock, with the waiter to keep.
    func wait<Value: Sendable>(
        timeout: Duration?, timeoutFailure: StubWebSocketClient.Failure,
        _ register: @escaping @Sendable (inout ClientState, Waiter<Value>) -> Waiter<Value>.Outcome?
    ) async -> Waiter<Value>.Outcome {
        let id = state.withLock { $0.nextID() }
        let deadline = timeout.map { ContinuousClock.now + $0 }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waiter = Waiter(id: id, deadline: deadline, timeout: timeoutFailure, continuation: continuation)
                if let answer = state.withLock({ register(&$0, waiter) }) {
                    continuation.resume(returning: answer)
                    return
                }
                wake()  // the thread now has a nearer deadline, or work
                if Task.isCancelled { cancel(id) }
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// Resumes the waiter `id`, if it still waits, with ``StubWebSocketClient/Failure/Kind/cancelled``.
    func cancel(_ id: Int) {
        var resuming: [() -> Void] = []
        let failure = handshake.failure(.cancelled, "wait was cancelled")
        state.withLock { $0.cancel(id, failure, resuming: &resuming) }
        for resume in resuming { resume() }
    }

    /// Queues `frame` (a message or a ping) and suspends until it is written, the connection ends, or the send
    /// timeout passes (which ends the connection: half a frame may be on the wire).
    /// - Parameter pong: for a ping, the payload whose pong also resumes it, and the deadline for that.
    func send(_ frame: WebSocketFrame, what: String) async -> Waiter<Void>.Outcome {
        let bytes = WebSocketFrameSerializer.serialize(Self.masked(frame))
        let timeout = configuration.sendTimeout
        let failure = handshake.failure(
            .timedOut,
            "did not take \(what) (\(bytes.count) bytes) within \(timeout.inWords): the client gave the connection up"
        )
        return await wait(timeout: timeout, timeoutFailure: failure) { state, waiter in
            if let refusal = state.refusal(sending: what, url: self.handshake.url.absoluteString) {
                return .failure(refusal)
            }
            state.outgoing.append(OutgoingFrame(kind: .sent(id: waiter.id), bytes: bytes))
            state.senders.append(waiter)
            return nil
        }
    }

    /// `frame` with a fresh random masking key: every client frame is masked (RFC 6455 §5.3).
    static func masked(_ frame: WebSocketFrame) -> WebSocketFrame {
        var frame = frame
        var generator = SystemRandomNumberGenerator()
        let key: UInt32 = generator.next()
        frame.maskingKey = WebSocketMaskingKey((0..<4).map { UInt8(truncatingIfNeeded: key >> ($0 * 8)) })
        return frame
    }
}

extension ClientState {
    /// Why a message cannot be sent now, if it cannot: the connection ended, or a close frame went first.
    func refusal(sending what: String, url: String) -> StubWebSocketClient.Failure? {
        if phase == .ended, let ending { return ending }
        if clientClosed {
            let close = closeRequest ?? serverClose ?? StubWebSocketClient.Close(code: 1000)
            return StubWebSocketClient.Failure(
                .closed(code: close.code, reason: close.reason),
                "\(url) cannot send \(what): this client closed the connection")
        }
        if let serverClose {
            return StubWebSocketClient.Failure(
                .closed(code: serverClose.code, reason: serverClose.reason),
                "\(url) cannot send \(what): the server closed the connection with \(serverClose)")
        }
        return nil
    }
}
