/// The bounds a ``WebSocketFrameParser`` and a ``WebSocketMessageAssembler`` enforce on what a peer sends.
public struct WebSocketLimits: Sendable, Hashable {
    /// The largest payload of one frame, in bytes; a larger one fails with 1009 as soon as its length is read,
    /// before any of its payload is buffered. Default 16 MiB.
    public var maxFramePayloadBytes: Int
    /// The largest message, in bytes, its fragments together; a larger one fails with 1009 at the fragment
    /// that crosses the bound. Default 16 MiB.
    public var maxMessageBytes: Int
    /// Whether every frame must carry a masking key, as a client's must (RFC 6455 §5.1). `true` for a server.
    public var requireMasking: Bool

    /// Limits; the defaults suit a server reading a client.
    public init(maxFramePayloadBytes: Int = 16 << 20, maxMessageBytes: Int = 16 << 20, requireMasking: Bool = true) {
        self.maxFramePayloadBytes = maxFramePayloadBytes
        self.maxMessageBytes = maxMessageBytes
        self.requireMasking = requireMasking
    }
}
