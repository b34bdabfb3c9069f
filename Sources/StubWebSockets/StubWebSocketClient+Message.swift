import Foundation

extension StubWebSocketClient {
    /// A message the server sent, its fragments joined.
    public enum Message: Sendable, Hashable, CustomStringConvertible {
        /// A text message (valid UTF-8: the client checks).
        case text(String)
        /// A binary message.
        case binary([UInt8])

        /// The text, or a binary message's bytes decoded as UTF-8 (as a stub's `matches` reads them).
        public var text: String {
            switch self {
            case .text(let text): text
            case .binary(let bytes): String(decoding: bytes, as: UTF8.self)
            }
        }

        /// The bytes: a binary message's, or a text message's UTF-8.
        public var bytes: [UInt8] {
            switch self {
            case .text(let text): Array(text.utf8)
            case .binary(let bytes): bytes
            }
        }

        /// Whether it is a binary message.
        public var isBinary: Bool {
            switch self {
            case .text: false
            case .binary: true
            }
        }

        /// The message read as JSON into `type`.
        ///
        /// ```swift
        /// struct Ack: Decodable { let ack: String }
        /// #expect(try await socket.receive().decode(Ack.self).ack == "42")
        /// ```
        /// - Throws: the decoder's error.
        public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws
            -> Value
        {
            try decoder.decode(type, from: Data(bytes))
        }

        public var description: String {
            switch self {
            case .text(let text): "text \"\(text.count > 200 ? String(text.prefix(200)) + "…" : text)\""
            case .binary(let bytes): "binary (\(bytes.count) bytes)"
            }
        }

        /// What it counts against ``Configuration/maxUnreceivedBytes`` while it waits: its bytes, and 64 for the
        /// message itself, so that a flood of empty messages is bounded too.
        var bufferedCost: Int {
            switch self {
            case .text(let text): 64 + text.utf8.count
            case .binary(let bytes): 64 + bytes.count
            }
        }
    }

    /// The server's close frame (RFC 6455 §5.5.1): its code (1005 when it had none) and reason.
    public struct Close: Sendable, Hashable, CustomStringConvertible {
        /// The status code: 1000 for a normal close, 1001 when the server is stopping, 4000–4999 for a stub's own.
        public var code: Int
        /// The reason, possibly empty.
        public var reason: String

        /// A close frame's code and reason.
        public init(code: Int, reason: String = "") {
            self.code = code
            self.reason = reason
        }

        public var description: String { reason.isEmpty ? "\(code)" : "\(code) \"\(reason)\"" }
    }

    /// The bounds and timeouts of one connection. The defaults suit a test on a busy machine.
    public struct Configuration: Sendable, Hashable {
        /// The largest message the server may send, in bytes; a larger one fails the connection with
        /// ``Failure/Kind/messageTooLarge`` (and a close 1009 to the server) as soon as its length is read.
        /// Default 16 MiB.
        public var maxMessageBytes: Int
        /// The most the messages received and not yet taken by ``StubWebSocketClient/receive(timeout:)`` may
        /// hold, in bytes (64 more per message); past it the connection fails with
        /// ``Failure/Kind/unreceivedLimitExceeded`` (and a close 1008 to the server). Default 32 MiB.
        public var maxUnreceivedBytes: Int
        /// How long a send may wait for the server to take its bytes before the connection is given up.
        /// Default 10 seconds.
        public var sendTimeout: Duration
        /// How long the server has, once the closing handshake is done, to close the TCP connection (as RFC
        /// 6455 §7.1.1 has the server do first) before the client closes it. Default 5 seconds.
        public var closeTimeout: Duration

        /// A configuration; see each property for its default.
        public init(
            maxMessageBytes: Int = 16 << 20, maxUnreceivedBytes: Int = 32 << 20, sendTimeout: Duration = .seconds(10),
            closeTimeout: Duration = .seconds(5)
        ) {
            self.maxMessageBytes = maxMessageBytes
            self.maxUnreceivedBytes = maxUnreceivedBytes
            self.sendTimeout = sendTimeout
            self.closeTimeout = closeTimeout
        }
    }
}
