extension StubWebSocketClient {
    /// Why a ``StubWebSocketClient`` call failed: the ``kind``, to match on, and a sentence naming the URL and
    /// what was waited for, to read.
    ///
    /// ```swift
    /// do {
    ///     _ = try await socket.receive(timeout: .seconds(2))
    /// } catch {
    ///     // "timed out after 2 seconds waiting for a message from ws://127.0.0.1:53127/chat"
    ///     #expect(error.kind == .timedOut, "\(error)")
    /// }
    /// ```
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The kinds of failure.
        public enum Kind: Sendable, Hashable {
            /// The URL or a header cannot be sent: not `ws://`, no host, a header the handshake sets itself.
            case invalidRequest
            /// The TCP connection could not be made (refused, unreachable, unknown host).
            case connectionFailed
            /// The time given ran out; ``Failure/detail`` says what was waited for. A ``receive(timeout:)``
            /// or ``ping(timeout:)`` that times out leaves the connection open; a connect, a send or a close
            /// that times out ends it.
            case timedOut
            /// The server answered the upgrade request with this status instead of `101 Switching Protocols`
            /// (a `404` near-miss report for a path no stub matches, say); ``Failure/detail`` has the body's
            /// first 4 KiB.
            case handshakeRejected(status: Int)
            /// The server answered `101` but not as RFC 6455 §4.1 requires: a wrong `Sec-WebSocket-Accept`, no
            /// `Upgrade: websocket`, an extension or a subprotocol the client did not offer.
            case invalidHandshake
            /// The closing handshake happened: the server's close frame had this code (1005 when it had none)
            /// and reason. Every message the server sent before it was received first.
            case closed(code: Int, reason: String)
            /// The connection ended without a closing handshake: the server closed or reset the TCP connection,
            /// or a read or write failed.
            case connectionLost
            /// A message from the server was larger than ``Configuration/maxMessageBytes``: the client closed
            /// the connection with 1009.
            case messageTooLarge
            /// The messages received and not yet taken by ``receive(timeout:)`` went past
            /// ``Configuration/maxUnreceivedBytes``: the client closed the connection with 1008. The messages
            /// before the limit can still be received.
            case unreceivedLimitExceeded
            /// The server broke RFC 6455 (a masked frame, a reserved opcode, text that is not UTF-8, a bad close
            /// frame): the client closed the connection with the code the rule asks for.
            case protocolError
            /// The task waiting was cancelled; the connection stays as it was (a cancelled connect ends it).
            case cancelled
        }

        /// What went wrong.
        public var kind: Kind
        /// A sentence saying what happened, naming the URL.
        public var detail: String

        /// A failure of `kind`, explained by `detail`.
        public init(_ kind: Kind, _ detail: String) {
            self.kind = kind
            self.detail = detail
        }

        public var description: String { detail }
    }
}
