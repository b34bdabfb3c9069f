// libFuzzer target for RequestParser. Built by fuzz/run.sh together with Sources/StubHTTP/{Message,Parser}.
//
// Each input is parsed with default and with small limits, whole and split at a point taken from its first byte,
// and one byte at a time for short inputs. Every way must give the same requests and the same error; the byte
// counts must stay within what was fed; and a request's body must respect the limits.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private struct Outcome: Equatable {
    var requests: [HTTPRequest] = []
    var continues = 0
    var error: ParserError?
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fputs("invariant failed: \(message())\n", stderr)
        abort()
    }
}

private func run(_ chunks: [UnsafeBufferPointer<UInt8>], limits: ParserLimits) -> Outcome {
    var parser = RequestParser(limits: limits)
    var outcome = Outcome()
    var fed = 0
    for chunk in chunks {
        parser.append(UnsafeRawBufferPointer(chunk))
        fed += chunk.count
        do {
            while let event = try parser.next() {
                switch event {
                case .expectContinue:
                    outcome.continues += 1
                case .request(let request):
                    check(request.body.count <= limits.maxBodyBytes, "body over the limit")
                    check(request.headers.count <= limits.maxHeaderCount, "too many headers")
                    check(request.trailers.count <= limits.maxHeaderCount, "too many trailers")
                    outcome.requests.append(request)
                }
                check(outcome.continues <= outcome.requests.count + 1, "expectContinue emitted twice")
            }
        } catch {
            // Sticky: the same error again, whatever is appended.
            parser.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
            do {
                _ = try parser.next()
                check(false, "error was not sticky")
            } catch let again {
                check(again == error, "sticky error differs")
            }
            outcome.error = error
            return outcome
        }
        let buffered = parser.bufferedByteCount
        check(buffered >= 0 && buffered <= fed, "bufferedByteCount \(buffered) outside 0...\(fed)")
        check(parser.isIdle == (buffered == 0), "isIdle disagrees with bufferedByteCount")
    }
    return outcome
}

private func compare(_ a: Outcome, _ b: Outcome, _ what: String) {
    check(a.requests == b.requests, "\(what): requests differ")
    check(
        a.error == b.error, "\(what): errors differ: \(String(describing: a.error)) vs \(String(describing: b.error))")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let split = size == 0 ? 0 : (Int(input[0]) * 7919) % (size + 1)
    let head = UnsafeBufferPointer(rebasing: input[0..<split])
    let tail = UnsafeBufferPointer(rebasing: input[split...])
    let smallLimits = ParserLimits(maxRequestLineBytes: 40, maxHeaderBytes: 96, maxHeaderCount: 4, maxBodyBytes: 32)
    for limits in [ParserLimits(), smallLimits] {
        let whole = run([input], limits: limits)
        compare(whole, run([head, tail], limits: limits), "whole vs split at \(split)")
        if size <= 512 {
            let bytes = (0..<size).map { UnsafeBufferPointer(rebasing: input[$0..<($0 + 1)]) }
            compare(whole, run(bytes, limits: limits), "whole vs per byte")
        }
    }
    return 0
}
