/// Limits the request parser enforces. Breaching one is a ``ParserError`` with its own status.
public struct ParserLimits: Sendable, Hashable {
    /// The longest request line accepted, in bytes, CRLF excluded. Longer → 414. Default 16 KiB.
    public var maxRequestLineBytes: Int = 16 * 1024
    /// The largest header section (request line and all header lines) in bytes. Larger → 431.
    /// Default 64 KiB.
    public var maxHeaderBytes: Int = 64 * 1024
    /// The most header fields accepted. More → 431. Default 256.
    public var maxHeaderCount: Int = 256
    /// The largest body accepted, after de-chunking, in bytes. Larger → 413. Default 64 MiB.
    public var maxBodyBytes: Int = 64 * 1024 * 1024

    /// The default limits.
    public init() {}

    public init(
        maxRequestLineBytes: Int = 16 * 1024, maxHeaderBytes: Int = 64 * 1024,
        maxHeaderCount: Int = 256, maxBodyBytes: Int = 64 * 1024 * 1024
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}
