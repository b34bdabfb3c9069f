import Testing

@testable import StubHTTP

@Suite("WebSocket message assembler and UTF-8")
struct WebSocketMessageAssemblerTests {
    /// The messages `frames` give, then the error that stopped them.
    private static func assemble(
        _ frames: [WebSocketFrame], limits: WebSocketLimits = WebSocketLimits()
    ) -> (messages: [WebSocketMessage], error: WebSocketError?) {
        var assembler = WebSocketMessageAssembler(limits: limits)
        var messages: [WebSocketMessage] = []
        for frame in frames {
            do {
                if let message = try assembler.push(frame) { messages.append(message) }
            } catch {
                return (messages, error)
            }
        }
        return (messages, nil)
    }

    private static func fragment(_ opcode: WebSocketOpcode, _ bytes: [UInt8], fin: Bool) -> WebSocketFrame {
        WebSocketFrame(fin: fin, opcode: opcode, payload: bytes)
    }

    @Test("fragments join, with control frames answered between them")
    func fragmentsAndControls() {
        let result = Self.assemble([
            Self.fragment(.binary, [1, 2], fin: false),
            .ping([9]),
            Self.fragment(.continuation, [], fin: false),
            .pong([]),
            Self.fragment(.continuation, [3], fin: true),
            .text("after"),
            .close(code: .goingAway, reason: "bye")
        ])
        #expect(result.error == nil)
        #expect(
            result.messages == [
                .ping([9]), .pong([]), .binary([1, 2, 3]), .text("after"), .close(code: .goingAway, reason: "bye")
            ])
    }

    @Test("a continuation with no message started is 1002")
    func loneContinuation() {
        let result = Self.assemble([.text("a"), Self.fragment(.continuation, [0x61], fin: true)])
        #expect(result.messages == [.text("a")])
        #expect(result.error?.kind == .unexpectedContinuation)
        #expect(result.error?.closeCode == .protocolError)
    }

    @Test("a new data frame in the middle of a fragmented message is 1002", arguments: [WebSocketOpcode.text, .binary])
    func interruptedMessage(opcode: WebSocketOpcode) {
        let result = Self.assemble([Self.fragment(.text, [0x61], fin: false), Self.fragment(opcode, [0x62], fin: true)])
        #expect(result.error?.kind == .expectedContinuation)
        #expect(result.error?.closeCode == .protocolError)
    }

    @Test("a message over the limit is 1009 at the fragment that crosses it, and the error is sticky")
    func messageTooLarge() throws {
        let limits = WebSocketLimits(maxMessageBytes: 4)
        let fits = Self.assemble(
            [Self.fragment(.binary, [1, 2], fin: false), Self.fragment(.continuation, [3, 4], fin: true)],
            limits: limits)
        #expect(fits.messages == [.binary([1, 2, 3, 4])])
        var assembler = WebSocketMessageAssembler(limits: limits)
        let first = try assembler.push(Self.fragment(.binary, [1, 2, 3], fin: false))
        #expect(first == nil)
        #expect(throws: WebSocketError.self) { try assembler.push(Self.fragment(.continuation, [4, 5], fin: true)) }
        do {
            _ = try assembler.push(.ping([]))
            Issue.record("not sticky")
        } catch {
            #expect(error.kind == .messageTooLarge)
            #expect(error.closeCode == .messageTooBig)
        }
    }

    /// Autobahn-style UTF-8 cases (section 6): each must fail with 1007 whole, and split at every byte between
    /// two fragments.
    static let invalidUTF8: [(String, [UInt8])] = [
        ("overlong '/' in 2 bytes", [0xC0, 0xAF]),
        ("overlong '/' in 3 bytes", [0xE0, 0x80, 0xAF]),
        ("overlong '/' in 4 bytes", [0xF0, 0x80, 0x80, 0xAF]),
        ("overlong U+07FF in 3 bytes", [0xE0, 0x9F, 0xBF]),
        ("overlong U+FFFF in 4 bytes", [0xF0, 0x8F, 0xBF, 0xBF]),
        ("C1 lead", [0xC1, 0xBF]),
        ("surrogate U+D800", [0xED, 0xA0, 0x80]),
        ("surrogate U+DFFF", [0xED, 0xBF, 0xBF]),
        ("surrogate pair", [0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80]),
        ("U+110000", [0xF4, 0x90, 0x80, 0x80]),
        ("F5 lead", [0xF5, 0x80, 0x80, 0x80]),
        ("FE, FF", [0xFE, 0xFF]),
        ("stray continuation", [0x61, 0x80]),
        ("truncated 2-byte", [0xC3]),
        ("truncated 3-byte", [0xE2, 0x82]),
        ("truncated 4-byte", [0xF0, 0x9F, 0x98]),
        ("lead byte then ASCII", [0xE2, 0x41, 0x82]),
        ("κόσμε then invalid", Array("κόσμε".utf8) + [0xED, 0xA0, 0x80, 0x65, 0x64, 0x69, 0x74, 0x65, 0x64])
    ]

    @Test("invalid UTF-8 in a text message is 1007, whatever the fragment boundaries", arguments: invalidUTF8)
    func invalidText(label: String, bytes: [UInt8]) {
        let whole = Self.assemble([Self.fragment(.text, bytes, fin: true)])
        #expect(whole.error?.kind == .invalidUTF8, "\(label)")
        #expect(whole.error?.closeCode == .invalidPayloadData)
        for split in 0...bytes.count {
            let parts = Self.assemble([
                Self.fragment(.text, Array(bytes[..<split]), fin: false),
                Self.fragment(.continuation, Array(bytes[split...]), fin: true)
            ])
            #expect(parts.messages.isEmpty && parts.error?.kind == .invalidUTF8, "\(label) split at \(split)")
        }
    }

    static let validUTF8: [String] = [
        "", "Hello", "κόσμε", "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}", "\u{D7FF}\u{E000}\u{FFFD}",
        "😀 emoji, ✓ check, 中文"
    ]

    @Test("valid UTF-8 passes split at every byte, one byte per fragment too", arguments: validUTF8)
    func validText(text: String) {
        let bytes = Array(text.utf8)
        for split in 0...bytes.count {
            let parts = Self.assemble([
                Self.fragment(.text, Array(bytes[..<split]), fin: false),
                Self.fragment(.continuation, Array(bytes[split...]), fin: true)
            ])
            #expect(parts.messages == [.text(text)] && parts.error == nil, "split at \(split)")
        }
        let single =
            [Self.fragment(.text, [], fin: false)] + bytes.map { Self.fragment(.continuation, [$0], fin: false) }
            + [Self.fragment(.continuation, [], fin: true)]
        #expect(Self.assemble(single).messages == [.text(text)])
    }

    @Test("an invalid byte fails at the fragment that carries it, before the message ends")
    func failsEarly() throws {
        var assembler = WebSocketMessageAssembler()
        let first = try assembler.push(Self.fragment(.text, Array("ok".utf8), fin: false))
        #expect(first == nil)
        #expect(throws: WebSocketError.self) { try assembler.push(Self.fragment(.continuation, [0xFF], fin: false)) }
    }

    @Test("the validator on its own")
    func validator() {
        var validator = WebSocketUTF8Validator()
        let results = [
            validator.consume([0xE2, 0x82]), !validator.isAtBoundary, validator.consume([0xAC]), validator.isAtBoundary,
            !validator.consume([0xC0]), !validator.consume([0x41]), !validator.isAtBoundary
        ]
        #expect(results == Array(repeating: true, count: 7))
    }

    @Test(
        "close codes: valid ones are read, others are 1002",
        arguments: [
            (1000, true), (1001, true), (1002, true), (1003, true), (1004, false), (1005, false), (1006, false),
            (1007, true), (1008, true), (1009, true), (1010, true), (1011, true), (1012, false), (1015, false),
            (1016, false), (999, false), (0, false), (2999, false), (3000, true), (4999, true), (5000, false),
            (65535, false)
        ] as [(UInt16, Bool)])
    func closeCodes(code: UInt16, valid: Bool) {
        let result = Self.assemble([WebSocketFrame(opcode: .close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)])])
        #expect(WebSocketCloseCode(code).isValidInCloseFrame == valid)
        if valid {
            #expect(result.messages == [.close(code: WebSocketCloseCode(code), reason: "")])
        } else {
            #expect(result.error?.kind == .invalidClosePayload)
            #expect(result.error?.closeCode == .protocolError)
        }
    }

    @Test("close payloads: empty, one byte, a reason, a reason that is not UTF-8")
    func closePayloads() {
        #expect(Self.assemble([WebSocketFrame(opcode: .close)]).messages == [.close(code: nil, reason: "")])
        let oneByte = Self.assemble([WebSocketFrame(opcode: .close, payload: [0x03])])
        #expect(oneByte.error?.kind == .invalidClosePayload)
        #expect(oneByte.error?.closeCode == .protocolError)
        #expect(
            Self.assemble([.close(code: .normalClosure, reason: "done ✓")]).messages == [
                .close(code: .normalClosure, reason: "done ✓")
            ])
        let badReason = Self.assemble([WebSocketFrame(opcode: .close, payload: [0x03, 0xE8, 0xCE, 0xBA, 0xE1])])
        #expect(badReason.error?.closeCode == .invalidPayloadData)
    }

    @Test("serialized close frames: code, reason cut at a character within 125 bytes")
    func serializeClose() {
        let frame = WebSocketFrame.close(code: .normalClosure, reason: "bye")
        #expect(WebSocketFrameSerializer.serialize(frame) == [0x88, 0x05, 0x03, 0xE8] + Array("bye".utf8))
        let long = WebSocketFrame.close(code: .goingAway, reason: String(repeating: "é", count: 100))
        #expect(long.payload.count == 124)
        #expect(Self.assemble([long]).messages == [.close(code: .goingAway, reason: String(repeating: "é", count: 61))])
        #expect(WebSocketFrameSerializer.serialize(.close(code: nil, reason: "ignored")) == [0x88, 0x00])
        #expect(WebSocketFrame.ping([UInt8](repeating: 0, count: 200)).payload.count == 125)
    }
}
