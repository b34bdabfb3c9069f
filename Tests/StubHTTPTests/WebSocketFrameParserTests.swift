import StubTestSupport
import Testing

@testable import StubHTTP

@Suite("WebSocket frame parser")
struct WebSocketFrameParserTests {
    /// A client-side parser: a server's frames are unmasked.
    static let unmasked = WebSocketLimits(requireMasking: false)
    static let hello = Array("Hello".utf8)

    @Test("RFC 6455 §5.7: a single-frame unmasked text message")
    func unmaskedHello() {
        let bytes: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
        let outcome = WebSocketHarness.parse(bytes, limits: Self.unmasked)
        #expect(outcome.frames == [WebSocketFrame(opcode: .text, payload: Self.hello)])
        #expect(outcome.error == nil)
        #expect(WebSocketFrameSerializer.serialize(.text("Hello")) == bytes)
    }

    @Test("RFC 6455 §5.7: a single-frame masked text message")
    func maskedHello() {
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        let outcome = WebSocketHarness.parse(bytes)
        let key = WebSocketMaskingKey([0x37, 0xfa, 0x21, 0x3d])
        #expect(outcome.frames == [WebSocketFrame(opcode: .text, maskingKey: key, payload: Self.hello)])
        #expect(outcome.error == nil)
        #expect(
            WebSocketFrameSerializer.serialize(WebSocketFrame(opcode: .text, maskingKey: key, payload: Self.hello))
                == bytes)
    }

    @Test("an unmasked frame from a client is a protocol error")
    func unmaskedFromClient() {
        let outcome = WebSocketHarness.parse([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
        #expect(outcome.error?.kind == .unmaskedFrame)
        #expect(outcome.error?.closeCode == .protocolError)
    }

    @Test("RFC 6455 §5.7: a fragmented unmasked text message, assembled")
    func fragmentedHello() throws {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f]
        let outcome = WebSocketHarness.parse(bytes, limits: Self.unmasked)
        #expect(outcome.frames.map(\.fin) == [false, true])
        #expect(outcome.frames.map(\.opcode) == [.text, .continuation])
        var assembler = WebSocketMessageAssembler()
        let first = try assembler.push(outcome.frames[0])
        #expect(first == nil)
        #expect(assembler.isAssembling)
        let second = try assembler.push(outcome.frames[1])
        #expect(second == .text("Hello"))
        #expect(!assembler.isAssembling)
    }

    @Test("RFC 6455 §5.7: an unmasked ping, and a masked pong answering it")
    func pingPong() {
        let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
        #expect(WebSocketHarness.parse(ping, limits: Self.unmasked).frames == [.ping(Self.hello)])
        #expect(WebSocketFrameSerializer.serialize(.ping(Self.hello)) == ping)
        let pong: [UInt8] = [0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        #expect(WebSocketHarness.parse(pong).frames.map(\.payload) == [Self.hello])
    }

    @Test("RFC 6455 §5.7: 256 bytes with a 16-bit length, 64 KiB with a 64-bit length")
    func extendedLengths() {
        let small = [UInt8](repeating: 0x5A, count: 256)
        let smallBytes = WebSocketFrameSerializer.serialize(.binary(small))
        #expect(Array(smallBytes.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(WebSocketHarness.feed([smallBytes[...]], limits: Self.unmasked).frames == [.binary(small)])
        let large = (0..<65536).map { UInt8(truncatingIfNeeded: $0) }
        let largeBytes = WebSocketFrameSerializer.serialize(.binary(large))
        #expect(Array(largeBytes.prefix(10)) == [0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
        #expect(WebSocketHarness.feed([largeBytes[...]], limits: Self.unmasked).frames == [.binary(large)])
        // Split at a few positions and byte by byte (the full split sweep runs on the 256-byte frame).
        #expect(WebSocketHarness.parse(smallBytes, limits: Self.unmasked).frames == [.binary(small)])
        for split in [1, 2, 5, 9, 10, 11, 40_000, largeBytes.count - 1] {
            let parts = WebSocketHarness.feed([largeBytes[..<split], largeBytes[split...]], limits: Self.unmasked)
            #expect(parts.frames == [.binary(large)], "split at \(split)")
        }
    }

    @Test("lengths written in more bytes than needed are accepted")
    func nonMinimalLengths() {
        // 5 bytes in a 16-bit length, then in a 64-bit length.
        let sixteen: [UInt8] = [0x82, 0x7E, 0x00, 0x05] + Self.hello
        let sixtyFour: [UInt8] = [0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0, 0x05] + Self.hello
        #expect(
            WebSocketHarness.parse(sixteen + sixtyFour, limits: Self.unmasked).frames == [
                .binary(Self.hello), .binary(Self.hello)
            ])
    }

    @Test("masking round trips for every payload length up to 9 and at offsets")
    func maskingRoundTrip() throws {
        let key = try #require(WebSocketMaskingKey([0x01, 0x80, 0xFF, 0x3C]))
        for count in 0...9 {
            let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37) }
            var masked = payload
            key.apply(to: &masked)
            if count > 0 { #expect(masked != payload) }
            var split = Array(masked.prefix(3))
            var rest = Array(masked.dropFirst(3))
            key.apply(to: &split)
            key.apply(to: &rest, offset: 3)
            #expect(split + rest == payload)
            let wire = WebSocketFrameSerializer.serialize(
                WebSocketFrame(opcode: .binary, maskingKey: key, payload: payload))
            #expect(WebSocketHarness.parse(wire).frames.map(\.payload) == [payload])
        }
        #expect(WebSocketMaskingKey([1, 2, 3]) == nil)
    }

    @Test(
        "protocol errors carry 1002, checked as soon as their bytes arrive",
        arguments: [
            ("RSV1", [0xC1, 0x80, 0, 0, 0, 0], WebSocketError.Kind.reservedBits),
            ("RSV2", [0xA1, 0x80, 0, 0, 0, 0], .reservedBits),
            ("RSV3", [0x91, 0x80, 0, 0, 0, 0], .reservedBits),
            ("opcode 3", [0x83, 0x80, 0, 0, 0, 0], .reservedOpcode),
            ("opcode 7", [0x87], .reservedOpcode),
            ("opcode 11", [0x8B, 0x80, 0, 0, 0, 0], .reservedOpcode),
            ("opcode 15", [0x8F], .reservedOpcode),
            ("fragmented ping", [0x09, 0x80, 0, 0, 0, 0], .invalidControlFrame),
            ("fragmented close", [0x08], .invalidControlFrame),
            ("ping of 126 bytes", [0x89, 0xFE, 0x00, 0x7E], .invalidControlFrame),
            ("close with a 64-bit length", [0x88, 0xFF], .invalidControlFrame),
            ("unmasked binary", [0x82, 0x00], .unmaskedFrame),
            ("top bit of the 64-bit length", [0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0], .invalidLength)
        ] as [(String, [UInt8], WebSocketError.Kind)])
    func protocolErrors(label: String, bytes: [UInt8], kind: WebSocketError.Kind) {
        let outcome = WebSocketHarness.parse(bytes)
        #expect(outcome.frames.isEmpty, "\(label)")
        #expect(outcome.error?.kind == kind, "\(label): \(outcome)")
        #expect(outcome.error?.closeCode == .protocolError, "\(label)")
    }

    @Test("a frame over the limit fails with 1009 from its length alone")
    func frameTooLarge() {
        let limits = WebSocketLimits(maxFramePayloadBytes: 100, requireMasking: false)
        for header: [UInt8] in [
            [0x82, 0x7E, 0x00, 0x65], [0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0, 0x65],
            [0x82, 0x7F, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        ] {
            let outcome = WebSocketHarness.parse(header, limits: limits)
            #expect(outcome.error?.kind == .frameTooLarge)
            #expect(outcome.error?.closeCode == .messageTooBig)
        }
        let atLimit = WebSocketFrameSerializer.serialize(.binary([UInt8](repeating: 1, count: 100)))
        #expect(WebSocketHarness.parse(atLimit, limits: limits).frames.count == 1)
    }

    @Test("frames before an error are returned, and the error is sticky")
    func stickyError() {
        let good = WebSocketHarness.clientFrame(0x1, Self.hello)
        let outcome = WebSocketHarness.parse(good + [0x83] + good)
        #expect(outcome.frames.map(\.payload) == [Self.hello])
        #expect(outcome.error?.kind == .reservedOpcode)
        var parser = WebSocketFrameParser()
        parser.append(contentsOf: [0xC1])
        #expect(throws: WebSocketError.self) { try parser.next() }
        parser.append(contentsOf: good)
        #expect(parser.bufferedByteCount == 0)
        #expect(throws: WebSocketError(.reservedBits, "reserved bits 4 set with no extension negotiated")) {
            try parser.next()
        }
    }

    @Test("a frame split from its header waits, buffering only what it was given")
    func waits() throws {
        var parser = WebSocketFrameParser()
        let bytes = WebSocketHarness.clientFrame(0x2, [UInt8](repeating: 7, count: 300))
        parser.append(contentsOf: bytes.prefix(100))
        let none = try parser.next()
        #expect(none == nil)
        #expect(parser.bufferedByteCount == 100)
        parser.append(contentsOf: bytes.dropFirst(100))
        let frame = try parser.next()
        #expect(frame?.payload.count == 300)
        let after = try parser.next()
        #expect(after == nil)
        #expect(parser.bufferedByteCount == 0)
    }

    @Test(
        "seeded random mutations of valid streams never trap and feed the same way whole or split",
        arguments: [1, 2, 3, 4] as [UInt64])
    func mutations(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let seeds: [[UInt8]] = [
            WebSocketHarness.clientFrame(0x1, Self.hello),
            WebSocketHarness.clientFrame(0x1, fin: false, Array("Hel".utf8))
                + WebSocketHarness.clientFrame(0x0, Array("lo".utf8)),
            WebSocketHarness.clientFrame(0x9, [1, 2, 3]) + WebSocketHarness.clientFrame(0x8, [0x03, 0xE8] + Self.hello),
            WebSocketHarness.clientFrame(0x2, [UInt8](repeating: 0xAB, count: 200))
        ]
        let limits = WebSocketLimits(maxFramePayloadBytes: 1000, maxMessageBytes: 1500)
        for _ in 0..<100 {
            var bytes = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
                default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
                }
            }
            let outcome = WebSocketHarness.parse(bytes, limits: limits)
            var assembler = WebSocketMessageAssembler(limits: limits)
            for frame in outcome.frames {
                #expect(frame.payload.count <= limits.maxFramePayloadBytes)
                _ = try? assembler.push(frame)
            }
        }
    }
}
