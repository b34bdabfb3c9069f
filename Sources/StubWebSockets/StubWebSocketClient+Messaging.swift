import Foundation
import StubHTTP

extension StubWebSocketClient {
    /// Sends a text message; returns once the socket took it.
    /// - Throws: ``Failure``: ``Failure/Kind/closed(code:reason:)`` after a close; ``Failure/Kind/timedOut`` when
    ///   the server takes none of it for ``Configuration/sendTimeout`` (the connection is then given up).
    public func send(text: String) async throws(Failure) {
        try await connection.send(.text(text), what: "a text message").get()
    }

    /// Sends a binary message; returns once the socket took it.
    /// - Throws: ``Failure``, as ``send(text:)``.
    public func send(binary bytes: [UInt8]) async throws(Failure) {
        try await connection.send(.binary(bytes), what: "a binary message").get()
    }

    /// Sends `data` as a binary message; returns once the socket took it.
    /// - Throws: ``Failure``, as ``send(text:)``.
    public func send(data: Data) async throws(Failure) {
        try await send(binary: Array(data))
    }

    /// Sends `value` encoded as JSON, as a text message (as a stub's `{"json": …}` is sent).
    ///
    /// ```swift
    /// struct Subscribe: Encodable { let subscribe: String }
    /// try await socket.send(json: Subscribe(subscribe: "scores"))
    /// ```
    /// - Throws: ``Failure``, as ``send(text:)``, and ``Failure/Kind/invalidRequest`` when `encoder` fails.
    public func send<Value: Encodable>(json value: Value, encoder: JSONEncoder = JSONEncoder()) async throws(Failure) {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw Failure(.invalidRequest, "\(url.absoluteString): the JSON to send could not be encoded: \(error)")
        }
        try await send(text: String(decoding: data, as: UTF8.self))
    }

    /// The next message the server sent, waiting for it up to `timeout`. Messages come in order, each to one call;
    /// those that came before the call wait for it (up to ``Configuration/maxUnreceivedBytes``).
    ///
    /// ```swift
    /// let message = try await socket.receive(timeout: .seconds(5))
    /// #expect(message.text == #"{"subscribed":true}"#)
    /// ```
    /// - Throws: ``Failure``: ``Failure/Kind/timedOut`` when none came (the connection stays open);
    ///   ``Failure/Kind/closed(code:reason:)`` once the server closed and every message before its close was
    ///   received; otherwise why the connection ended.
    public func receive(timeout: Duration = .seconds(5)) async throws(Failure) -> Message {
        let failure = Failure(
            .timedOut,
            "timed out after \(timeout.inWords) waiting for a message from \(url.absoluteString) (none came; the "
                + "connection stays open)")
        return try await connection.wait(timeout: timeout, timeoutFailure: failure) { state, waiter in
            if let message = state.takeMessage() { return .success(message) }
            if state.phase == .ended, let ending = state.ending { return .failure(ending) }
            state.receivers.append(waiter)
            return nil
        }.get()
    }

    /// Sends a ping and waits up to `timeout` for the server's pong.
    /// - Throws: ``Failure``: ``Failure/Kind/timedOut`` when no pong came (the connection stays open), or why the
    ///   connection ended.
    public func ping(timeout: Duration = .seconds(5)) async throws(Failure) {
        var generator = SystemRandomNumberGenerator()
        let payload = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let bytes = WebSocketFrameSerializer.serialize(ClientConnection.masked(.ping(payload)))
        let url = url.absoluteString
        let failure = Failure(
            .timedOut, "timed out after \(timeout.inWords) waiting for \(url) to answer a ping with its pong")
        let outcome: Waiter<Void>.Outcome = await connection.wait(timeout: timeout, timeoutFailure: failure) {
            state, waiter in
            if let refusal = state.refusal(sending: "a ping", url: url) { return .failure(refusal) }
            state.outgoing.append(OutgoingFrame(kind: .ping, bytes: bytes))
            state.pingers.append((payload, waiter))
            return nil
        }
        try outcome.get()
    }

    /// Closes the connection: sends a close frame with `code` and `reason` (cut to fit 123 bytes), waits for the
    /// server's close frame and for it to close the TCP connection, and returns the server's close. When the
    /// server closed first, returns its close at once.
    ///
    /// ```swift
    /// let close = try await socket.close(code: 1000, reason: "done")
    /// #expect(close.code == 1000)   // the stub server echoes the code
    /// ```
    /// - Parameters:
    ///   - code: 1000–1003, 1007–1011 or 3000–4999 (the codes a close frame may carry). Default 1000.
    ///   - reason: why, in the close frame (at most 123 bytes of UTF-8 are sent). Default none.
    ///   - timeout: for the server's answer. Default 5 seconds.
    /// - Throws: ``Failure``: ``Failure/Kind/timedOut`` when the server did not answer (the client then closes
    ///   the TCP connection itself); ``Failure/Kind/invalidRequest`` for a code that may not be sent; why the
    ///   connection ended, when it ended without a closing handshake.
    @discardableResult
    public func close(code: Int = 1000, reason: String = "", timeout: Duration = .seconds(5)) async throws(Failure)
        -> Close
    {
        guard let wire = UInt16(exactly: code), WebSocketCloseCode(wire).isValidInCloseFrame else {
            throw Failure(
                .invalidRequest,
                "\(url.absoluteString): \(code) may not be sent in a close frame (1000–1003, 1007–1011, 3000–4999)")
        }
        let failure = Failure(
            .timedOut,
            "timed out after \(timeout.inWords) waiting for \(url.absoluteString) to answer the close (\(code)); "
                + "the client closed the TCP connection")
        return try await serverClose(timeout: timeout, failure: failure, endsConnection: true) { state in
            guard !state.clientClosed else { return }
            state.clientClosed = true
            if !state.closeQueued { state.closeRequest = Close(code: code, reason: reason) }
        }
    }

    /// Waits up to `timeout` for the server to close the connection (its close frame, then the end of the TCP
    /// connection, which the client answers as it should), and returns the server's close. Messages that came
    /// before it stay for ``receive(timeout:)``.
    ///
    /// ```swift
    /// try await socket.send(text: "bye")
    /// let close = try await socket.waitForClose(timeout: .seconds(5))
    /// #expect(close == StubWebSocketClient.Close(code: 4000, reason: "see you"))
    /// ```
    /// - Throws: ``Failure``: ``Failure/Kind/timedOut`` when the server did not close (the connection stays
    ///   open), or why the connection ended without a closing handshake.
    public func waitForClose(timeout: Duration = .seconds(5)) async throws(Failure) -> Close {
        let failure = Failure(
            .timedOut,
            "timed out after \(timeout.inWords) waiting for \(url.absoluteString) to close the connection (it "
                + "stays open)")
        return try await serverClose(timeout: timeout, failure: failure, endsConnection: false)
    }

    /// Waits up to `timeout` for the server's close (at once when the connection has ended: its close, else
    /// why it ended); `failure` when the time runs out. While the connection is open, `register` runs under
    /// the lock before the waiter is kept, as one that ends the connection or not (``close(code:reason:timeout:)``
    /// ends it; ``waitForClose(timeout:)`` does not).
    private func serverClose(
        timeout: Duration, failure: Failure, endsConnection: Bool,
        _ register: @escaping @Sendable (inout ClientState) -> Void = { _ in }
    ) async throws(Failure) -> Close {
        try await connection.wait(timeout: timeout, timeoutFailure: failure) { state, waiter in
            if state.phase == .ended {
                if let close = state.serverClose { return .success(close) }
                return .failure(state.ending ?? failure)
            }
            register(&state)
            state.closers.append((endsConnection: endsConnection, waiter: waiter))
            return nil
        }.get()
    }

    /// The server's close frame, once it came (nil while the connection is open).
    public var serverClose: Close? { connection.state.withLock { $0.serverClose } }
}
