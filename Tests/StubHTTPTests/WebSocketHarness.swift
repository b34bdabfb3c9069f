import Testing

@testable import StubHTTP

/// What feeding bytes to a ``WebSocketFrameParser`` produced: the frames returned, then the error that stopped it.
struct WebSocketParseOutcome: Equatable, CustomStringConvertible {
    var frames: [WebSocketFrame] = []
    var error: WebSocketError?

    var description: String {
        let rendered = frames.map { "\($0.opcode)(fin: \($0.fin), \($0.payload.count)B)" }
        return "\(rendered) error=\(error.map(\.description) ?? "nil")"
    }
}

/// Feeds bytes to frame parsers whole, split in two at every position, and one byte at a time.
enum WebSocketHarness {
    /// The outcome of feeding `chunks` in order, calling `next()` after each until it returns nil.
    static func feed(_ chunks: [ArraySlice<UInt8>], limits: WebSocketLimits) -> WebSocketParseOutcome {
        var parser = WebSocketFrameParser(limits: limits)
        var outcome = WebSocketParseOutcome()
        for chunk in chunks {
            parser.append(contentsOf: chunk)
            do {
                while let frame = try parser.next() { outcome.frames.append(frame) }
            } catch {
                outcome.error = error
                return outcome
            }
        }
        return outcome
    }

    /// The outcome of `bytes` fed whole, after checking that every split and byte-by-byte feeding agree with it.
    static func parse(
        _ bytes: [UInt8], limits: WebSocketLimits = WebSocketLimits(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> WebSocketParseOutcome {
        let whole = feed([bytes[...]], limits: limits)
        for split in 0...bytes.count {
            let parts = feed([bytes[..<split], bytes[split...]], limits: limits)
            #expect(parts == whole, "split at \(split)", sourceLocation: sourceLocation)
            if parts != whole { break }
        }
        let single = feed(bytes.indices.map { bytes[$0..<$0 + 1] }, limits: limits)
        #expect(single == whole, "byte by byte", sourceLocation: sourceLocation)
        return whole
    }

    /// The wire bytes of a client frame: masked with `key` unless it is nil.
    static func clientFrame(
        _ opcode: UInt8, fin: Bool = true, _ payload: [UInt8], key: [UInt8]? = [0x37, 0xfa, 0x21, 0x3d]
    ) -> [UInt8] {
        guard let op = WebSocketOpcode(rawValue: opcode) else { return [] }
        let frame = WebSocketFrame(
            fin: fin, opcode: op, maskingKey: key.flatMap(WebSocketMaskingKey.init), payload: payload)
        return WebSocketFrameSerializer.serialize(frame)
    }
}
