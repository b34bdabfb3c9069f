extension RequestParser {
    /// The bytes buffered after the last request returned and not parsed yet. After a protocol switch (a
    /// WebSocket's `101 Switching Protocols`) they belong to the new protocol: a client may send its first frames
    /// in the same segment as the upgrade request.
    public var unparsedBytes: ArraySlice<UInt8> { buffer[readIndex...] }
}
