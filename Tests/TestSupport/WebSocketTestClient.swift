import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A raw, blocking WebSocket client for the engine's tests (RFC 6455, client side): it sends the upgrade request
/// and frames exactly as told, malformed ones included (unmasked, fragmented, a fixed key, a bad version), and
/// reads the server's frames with a decoder of its own, not the engine's. Every read has a timeout (default
/// 10 s), so a broken server fails a test instead of hanging it. One thread at a time. A test that only needs to
/// talk to a WebSocket uses StubWebSockets' `StubWebSocketClient` (async, it blocks no thread of the test's).
public final class WebSocketTestClient: @unchecked Sendable {
    /// One frame from the server.
    public struct Frame: Sendable, Equatable, CustomStringConvertible {
        public var fin: Bool
        public var opcode: UInt8
        public var payload: [UInt8]
        public var text: String { String(decoding: payload, as: UTF8.self) }
        /// A close frame's code, if it has one.
        public var closeCode: Int? { payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil }
        /// A close frame's reason.
        public var closeReason: String { String(decoding: payload.dropFirst(2), as: UTF8.self) }
        public var description: String { "frame(op \(opcode), fin \(fin), \(payload.count) bytes: \(text))" }
    }

    /// The opcodes (RFC 6455 §5.2).
    public enum Op {
        public static let continuation: UInt8 = 0, text: UInt8 = 1, binary: UInt8 = 2
        public static let close: UInt8 = 8, ping: UInt8 = 9, pong: UInt8 = 10
    }
    /// The RFC 6455 §1.3 example key and its accept value.
    public static let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="
    public static let sampleAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port` (no handshake yet).
    public init(port: Int, timeout: Duration = .seconds(10)) throws {
        fd = try RawSocket.openConnection(host: "127.0.0.1", port: port)
        var tv = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The upgrade request's bytes: `extra` lines (`"Name: value"`) added, or a line replaced when it names the
    /// same field.
    public static func upgradeRequest(path: String = "/ws", key: String = sampleKey, extra: [String] = []) -> [UInt8] {
        var lines = [
            "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: \(key)",
            "Sec-WebSocket-Version: 13"
        ]
        for line in extra {
            let name = line.prefix { $0 != ":" }.lowercased()
            lines.removeAll { $0.prefix { $0 != ":" }.lowercased() == name }
            lines.append(line)
        }
        return Array(("GET \(path) HTTP/1.1\r\n" + lines.map { $0 + "\r\n" }.joined() + "\r\n").utf8)
    }

    /// A client frame's bytes, masked unless `masked` is false.
    public static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        if payload.count <= 125 {
            bytes.append(mask | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(mask | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        guard masked else { return bytes + payload }
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
    }

    /// A masked text frame.
    public static func text(_ text: String, fin: Bool = true) -> [UInt8] { frame(Op.text, Array(text.utf8), fin: fin) }

    /// A masked close frame with `code` and `reason`.
    public static func closeFrame(_ code: Int, _ reason: String = "") -> [UInt8] {
        frame(Op.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }

    public func send(_ bytes: [UInt8]) throws {
        do { try RawSocket.sendAll(fd, bytes) } catch { throw ClientError(description: "\(error)") }
    }

    /// Shuts the sending side (the server reads end of stream), as a client leaving without a close frame.
    public func shutdownWrite() {
        RawSocket.shutdownWrite(fd)
    }

    /// Sends the upgrade request (plus `after`, in the same write) and reads the response head: its status
    /// and fields (names lowercased).
    public func handshake(path: String = "/ws", extra: [String] = [], after: [UInt8] = []) throws
        -> (status: Int, headers: [String: String])
    {
        try send(Self.upgradeRequest(path: path, extra: extra) + after)
        return try readHead()
    }

    /// Reads a response head.
    public func readHead() throws -> (status: Int, headers: [String: String]) {
        let end: [UInt8] = [13, 10, 13, 10]
        var index: Int?
        while index == nil {
            index = buffer.count < 4 ? nil : (0...(buffer.count - 4)).first { buffer[$0..<$0 + 4].elementsEqual(end) }
            if index == nil { guard try fill() else { throw ClientError(description: "closed before a head") } }
        }
        let head = String(decoding: buffer[0..<index!], as: UTF8.self)
        buffer.removeFirst(index! + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let status = Int(lines.removeFirst().split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return (status, headers)
    }

    /// Reads `count` bytes of a response body (after ``readHead()``).
    public func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { guard try fill() else { throw ClientError(description: "closed mid-body") } }
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
    }

    /// The next frame, or nil when the server closed the connection (EOF or reset) first.
    public func readFrame() throws -> Frame? {
        while true {
            if let frame = takeFrame() { return frame }
            guard try fill() else { return nil }
        }
    }

    /// Frames until the connection ends (at most `limit` of them): what the server sent before closing.
    public func readUntilClosed(limit: Int = 10_000) throws -> [Frame] {
        var frames: [Frame] = []
        while frames.count < limit, let frame = try readFrame() { frames.append(frame) }
        return frames
    }

    private func takeFrame() -> Frame? {
        guard buffer.count >= 2 else { return nil }
        var length = Int(buffer[1] & 0x7F)
        var header = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            header = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            header = 10
        }
        guard buffer.count >= header + length else { return nil }
        let frame = Frame(
            fin: buffer[0] & 0x80 != 0, opcode: buffer[0] & 0x0F, payload: Array(buffer[header..<header + length]))
        buffer.removeFirst(header + length)
        return frame
    }

    /// Reads more bytes; false at end of stream or reset.
    private func fill() throws -> Bool {
        try RawSocket.receive(fd, appendingTo: &buffer)
    }
}
