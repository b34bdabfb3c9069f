/// A pure, incremental WebSocket frame parser (RFC 6455 §5.2). It does no I/O: the connection appends the bytes
/// it reads and calls ``next()`` until it returns nil.
///
/// ```swift
/// var parser = WebSocketFrameParser()
/// parser.append(contentsOf: bytesRead)
/// while let frame = try parser.next() {
///     if let message = try assembler.push(frame) { handle(message) }
/// }
/// ```
///
/// Each rule is checked as soon as the bytes it reads have arrived, so bytes split anywhere give the same frames
/// and the same error: reserved bits or opcodes, a fragmented control frame (first byte); a control frame over
/// 125 bytes, a missing mask when ``WebSocketLimits/requireMasking`` (second byte); a 64-bit length with its top
/// bit set, a payload over ``WebSocketLimits/maxFramePayloadBytes`` (the extended length). A length written in
/// more bytes than it needs is accepted, as RFC 6455 allows. Payloads come out unmasked. Once ``next()`` returns
/// nil, what stays buffered is part of one frame: at most its 14 header bytes and
/// ``WebSocketLimits/maxFramePayloadBytes``.
public struct WebSocketFrameParser: Sendable {
    /// The limits this parser enforces.
    public let limits: WebSocketLimits
    /// Bytes appended; `buffer[readIndex...]` is not consumed yet.
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// The error that stopped the parser; every later ``next()`` throws it again.
    private var failure: WebSocketError?

    /// A parser enforcing `limits`.
    public init(limits: WebSocketLimits = WebSocketLimits()) {
        self.limits = limits
    }

    /// Buffers bytes read from the socket. Bytes appended after ``next()`` has thrown are ignored.
    public mutating func append<S: Sequence>(contentsOf bytes: S) where S.Element == UInt8 {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
    }

    /// Bytes appended and not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// The next complete frame, or nil when more bytes are needed. After it throws, the parser is dead: every
    /// later call rethrows the same error.
    /// - Throws: ``WebSocketError``; its ``WebSocketError/closeCode`` is the code to close with.
    public mutating func next() throws(WebSocketError) -> WebSocketFrame? {
        if let failure { throw failure }
        do {
            return try parse()
        } catch {
            failure = error
            buffer = []
            readIndex = 0
            throw error
        }
    }

    /// Parses one frame at `readIndex`, or returns nil (consuming nothing) when it has not fully arrived.
    private mutating func parse() throws(WebSocketError) -> WebSocketFrame? {
        let available = buffer.count - readIndex
        guard available >= 1 else { return nil }
        let first = buffer[readIndex]
        let fin = first & 0x80 != 0
        let reservedBits = (first >> 4) & 0x7
        guard reservedBits == 0 else {
            throw WebSocketError(.reservedBits, "reserved bits \(reservedBits) set with no extension negotiated")
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw WebSocketError(.reservedOpcode, "reserved opcode \(first & 0x0F)")
        }
        if opcode.isControl, !fin {
            throw WebSocketError(.invalidControlFrame, "a fragmented \(opcode) frame (control frames have FIN set)")
        }
        guard available >= 2 else { return nil }
        let second = buffer[readIndex + 1]
        let masked = second & 0x80 != 0
        let shortLength = Int(second & 0x7F)
        if opcode.isControl, shortLength > 125 {
            throw WebSocketError(.invalidControlFrame, "a \(opcode) frame longer than 125 bytes")
        }
        if limits.requireMasking, !masked {
            throw WebSocketError(.unmaskedFrame, "an unmasked \(opcode) frame from a client")
        }
        var headerLength = 2
        let length: Int
        switch shortLength {
        case 126:
            guard available >= 4 else { return nil }
            length = Int(buffer[readIndex + 2]) << 8 | Int(buffer[readIndex + 3])
            headerLength = 4
        case 127:
            guard available >= 10 else { return nil }
            var wide: UInt64 = 0
            for index in 2..<10 { wide = wide << 8 | UInt64(buffer[readIndex + index]) }
            guard wide >> 63 == 0 else {
                throw WebSocketError(.invalidLength, "a 64-bit payload length with its most significant bit set")
            }
            guard wide <= UInt64(limits.maxFramePayloadBytes) else { throw tooLarge(wide) }
            length = Int(wide)
            headerLength = 10
        default:
            length = shortLength
        }
        guard length <= limits.maxFramePayloadBytes else { throw tooLarge(UInt64(length)) }
        let keyStart = readIndex + headerLength
        if masked { headerLength += 4 }
        guard available >= headerLength + length else { return nil }
        let payloadStart = readIndex + headerLength
        var payload = Array(buffer[payloadStart..<payloadStart + length])
        var key: WebSocketMaskingKey?
        if masked {
            key = WebSocketMaskingKey(Array(buffer[keyStart..<keyStart + 4]))
            key?.apply(to: &payload)
        }
        consume(headerLength + length)
        return WebSocketFrame(fin: fin, reservedBits: reservedBits, opcode: opcode, maskingKey: key, payload: payload)
    }

    private func tooLarge(_ length: UInt64) -> WebSocketError {
        WebSocketError(.frameTooLarge, "a frame of \(length) bytes, over the limit of \(limits.maxFramePayloadBytes)")
    }

    /// Moves past `count` bytes, dropping consumed bytes once they are most of the buffer.
    private mutating func consume(_ count: Int) {
        readIndex += count
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            readIndex = 0
        } else if readIndex >= 4096, readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
