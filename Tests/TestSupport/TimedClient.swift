#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking HTTP/1.1 client on one loopback socket that records when each byte arrived: for
/// measuring a throttled response on the wire, and for holding many requests open at once.
public final class TimedClient {
    /// What was read, and when (monotonic seconds) each read returned.
    public struct Received: Sendable {
        public var bytes: [UInt8] = []
        /// (seconds since the request was sent, total bytes so far) after each read.
        public var arrivals: [(seconds: Double, total: Int)] = []
        /// The errno of a failed read (`ECONNRESET`), if the connection broke.
        public var errorNumber: Int32?

        /// The bytes after the header block.
        public var body: [UInt8] {
            guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else { return [] }
            return Array(bytes[end.upperBound...])
        }

        /// The header block as text.
        public var head: String {
            guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else {
                return String(decoding: bytes, as: UTF8.self)
            }
            return String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        }
    }

    private let fd: Int32
    private var sentAt = 0.0

    /// Connects to 127.0.0.1:`port`; reads time out after `timeoutSeconds` without data.
    public init(port: Int, timeoutSeconds: Int = 30) throws {
        fd = try RawSocket.connectLoopback(port: port, timeoutSeconds: timeoutSeconds)
    }

    deinit { close(fd) }

    /// Sends `GET path` with `Connection: close`.
    public func sendGet(_ path: String) throws {
        let bytes = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        // Before sending: arrival times are then upper bounds of the time since the server got the request.
        sentAt = Self.now()
        try RawSocket.sendAll(fd, bytes)
    }

    /// Reads until the server closes, an error, a timeout, or `limit` bytes.
    public func readToEnd(limit: Int = 16 << 20) -> Received {
        var received = Received()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while received.bytes.count < limit {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { received.errorNumber = errno }
            guard n > 0 else { break }
            received.bytes += buffer[..<n]
            received.arrivals.append((Self.now() - sentAt, received.bytes.count))
        }
        return received
    }

    /// Monotonic seconds.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// `ECONNRESET`, for comparing with ``Received/errorNumber``.
    public static let connectionReset = ECONNRESET
}
