// libFuzzer target for the WebSocket building blocks. Built by fuzz/run.sh together with
// Sources/StubHTTP/{Message,WebSocket}.
//
// Each input is read as frames by a server's parser (masking required) and a client's (none), with default and
// with small limits, whole, split at a point taken from its first byte, and one byte at a time for short inputs.
// Every way must give the same frames and the same error; frames respect the limits and serialize back to
// frames that parse the same; the assembler's messages respect the message limit, and its UTF-8 verdict on a
// text message agrees with the standard library's. The input is also tried as a Sec-WebSocket-Key.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private struct Outcome: Equatable {
    var frames: [WebSocketFrame] = []
    var error: WebSocketError?
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fputs("invariant failed: \(message())\n", stderr)
        abort()
    }
}

private func run(_ chunks: [UnsafeBufferPointer<UInt8>], limits: WebSocketLimits) -> Outcome {
    var parser = WebSocketFrameParser(limits: limits)
    var outcome = Outcome()
    var fed = 0
    for chunk in chunks {
        parser.append(contentsOf: chunk)
        fed += chunk.count
        do {
            while let frame = try parser.next() {
                check(frame.payload.count <= limits.maxFramePayloadBytes, "frame over the limit")
                check(frame.reservedBits == 0, "reserved bits accepted")
                check(!frame.opcode.isControl || (frame.fin && frame.payload.count <= 125), "bad control frame")
                check(!limits.requireMasking || frame.maskingKey != nil, "unmasked frame accepted")
                outcome.frames.append(frame)
            }
        } catch {
            parser.append(contentsOf: [0x81, 0x80, 0, 0, 0, 0])
            do {
                _ = try parser.next()
                check(false, "error was not sticky")
            } catch let again {
                check(again == error, "sticky error differs")
            }
            outcome.error = error
            return outcome
        }
        check(parser.bufferedByteCount >= 0 && parser.bufferedByteCount <= fed, "bufferedByteCount out of range")
    }
    return outcome
}

private func compare(_ a: Outcome, _ b: Outcome, _ what: String) {
    check(a.frames == b.frames, "\(what): frames differ")
    check(
        a.error == b.error, "\(what): errors differ: \(String(describing: a.error)) vs \(String(describing: b.error))")
}

/// Frames serialized again parse to themselves.
private func roundTrip(_ frames: [WebSocketFrame], limits: WebSocketLimits) {
    var parser = WebSocketFrameParser(limits: limits)
    for frame in frames { parser.append(contentsOf: WebSocketFrameSerializer.serialize(frame)) }
    for frame in frames {
        let again = try? parser.next()
        check(again == frame, "a serialized frame parsed differently")
    }
}

private func assemble(_ frames: [WebSocketFrame], limits: WebSocketLimits) {
    var assembler = WebSocketMessageAssembler(limits: limits)
    var text: [UInt8] = []
    var inText = false
    for frame in frames {
        if frame.opcode == .text {
            (text, inText) = (frame.payload, true)
        } else if frame.opcode == .continuation, inText {
            text += frame.payload
        } else if frame.opcode == .binary {
            inText = false
        }
        do {
            guard let message = try assembler.push(frame) else { continue }
            switch message {
            case .text(let string):
                check(string.utf8.count <= limits.maxMessageBytes, "message over the limit")
                check(Array(string.utf8) == text, "text message differs from its fragments")
                check(String(validating: text, as: UTF8.self) != nil, "invalid UTF-8 accepted")
                inText = false
            case .binary(let bytes): check(bytes.count <= limits.maxMessageBytes, "message over the limit")
            case .close(let code, _): check(code?.isValidInCloseFrame ?? true, "invalid close code accepted")
            case .ping, .pong: break
            }
        } catch {
            if error.kind == .invalidUTF8, frame.opcode != .close {
                check(String(validating: text, as: UTF8.self) == nil, "valid UTF-8 refused")
            }
            return
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let split = size == 0 ? 0 : (Int(input[0]) * 7919) % (size + 1)
    let head = UnsafeBufferPointer(rebasing: input[0..<split])
    let tail = UnsafeBufferPointer(rebasing: input[split...])
    for requireMasking in [true, false] {
        let small = WebSocketLimits(maxFramePayloadBytes: 64, maxMessageBytes: 100, requireMasking: requireMasking)
        for limits in [WebSocketLimits(requireMasking: requireMasking), small] {
            let whole = run([input], limits: limits)
            compare(whole, run([head, tail], limits: limits), "whole vs split at \(split)")
            if size <= 512 {
                let bytes = (0..<size).map { UnsafeBufferPointer(rebasing: input[$0..<($0 + 1)]) }
                compare(whole, run(bytes, limits: limits), "whole vs per byte")
            }
            roundTrip(whole.frames, limits: limits)
            assemble(whole.frames, limits: limits)
        }
    }
    let key = String(decoding: input, as: UTF8.self)
    check(WebSocketHandshake.acceptValue(forKey: key).utf8.count == 28, "accept value is not 28 characters")
    var headers = HTTPHeaders([
        ("Host", "a"), ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13")
    ])
    headers.add(name: "Sec-WebSocket-Key", value: key)
    _ = WebSocketHandshake.answer(HTTPRequest(method: .get, target: "/", headers: headers), subprotocols: ["a"])
    return 0
}
