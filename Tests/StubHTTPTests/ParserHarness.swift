import Testing

@testable import StubHTTP

/// What feeding bytes to a ``RequestParser`` produced: the events returned, then the error that stopped it.
struct ParseOutcome: Equatable, CustomStringConvertible {
    var events: [ParseEvent] = []
    var error: ParserError?

    /// The events without `.expectContinue`, which depends on whether the body had arrived yet.
    var requests: [HTTPRequest] {
        events.compactMap { if case .request(let request) = $0 { request } else { nil } }
    }

    var description: String {
        let rendered = events.map { event -> String in
            switch event {
            case .expectContinue: "expectContinue"
            case .request(let r): "request(\(r.method) \(r.target) \(r.version) [\(r.headers)] body=\(r.body.count)B)"
            }
        }
        return "\(rendered) error=\(error.map { "\($0.kind): \($0.detail)" } ?? "nil")"
    }
}

/// One labelled row of the parser table: raw bytes and the requests (or error) they must produce.
struct ParserCase: Sendable, CustomTestStringConvertible {
    var label: String
    var bytes: [UInt8]
    var requests: [HTTPRequest]
    var error: ParserError.Kind?
    var limits = ParserLimits()

    var testDescription: String { label }

    /// A row that parses into `requests`.
    static func ok(
        _ label: String, _ raw: String, _ requests: HTTPRequest...,
        limits: ParserLimits = ParserLimits()
    ) -> ParserCase {
        ParserCase(label: label, bytes: Array(raw.utf8), requests: requests, error: nil, limits: limits)
    }

    /// A row that fails with `error` (after producing `requests`, if any).
    static func fails(
        _ label: String, _ raw: String, _ error: ParserError.Kind, after requests: [HTTPRequest] = [],
        limits: ParserLimits = ParserLimits()
    ) -> ParserCase {
        ParserCase(label: label, bytes: Array(raw.utf8), requests: requests, error: error, limits: limits)
    }

    /// A row of raw bytes (for NUL, obs-text, …) that fails with `error`.
    static func fails(
        _ label: String, bytes: [UInt8], _ error: ParserError.Kind,
        limits: ParserLimits = ParserLimits()
    ) -> ParserCase {
        ParserCase(label: label, bytes: bytes, requests: [], error: error, limits: limits)
    }
}

/// Feeds the same bytes to a parser in different ways and checks every way gives the same result, in the manner of
/// NIO's `ByteToMessageDecoderVerifier` and picohttpparser's per-byte tests:
/// 1. the whole buffer at once, 2. one byte at a time, calling `next()` after each byte, 3. split into two appends
/// at every byte boundary, 4. several messages in one buffer (pipelining).
enum ParserHarness {
    /// Appends each chunk in turn and drains `next()` after each one, stopping at the first error.
    static func run(_ chunks: [ArraySlice<UInt8>], limits: ParserLimits) -> ParseOutcome {
        var parser = RequestParser(limits: limits)
        var outcome = ParseOutcome()
        var fed = 0
        for chunk in chunks {
            parser.append(contentsOf: chunk)
            fed += chunk.count
            do {
                while let event = try parser.next() {
                    outcome.events.append(event)
                }
            } catch {
                outcome.error = error
                return outcome
            }
            #expect(parser.bufferedByteCount >= 0 && parser.bufferedByteCount <= fed)
        }
        return outcome
    }

    static func whole(_ bytes: [UInt8], limits: ParserLimits = ParserLimits()) -> ParseOutcome {
        run([bytes[...]], limits: limits)
    }

    static func byteByByte(_ bytes: [UInt8], limits: ParserLimits = ParserLimits()) -> ParseOutcome {
        run(bytes.indices.map { bytes[$0...$0] }, limits: limits)
    }

    static func split(_ bytes: [UInt8], at index: Int, limits: ParserLimits = ParserLimits()) -> ParseOutcome {
        run([bytes[..<index], bytes[index...]], limits: limits)
    }

    /// Checks one row in all four ways.
    static func verify(_ row: ParserCase, sourceLocation: SourceLocation = #_sourceLocation) {
        let whole = whole(row.bytes, limits: row.limits)
        #expect(
            whole.events == row.requests.map(ParseEvent.request), "\(row.label): whole buffer: \(whole)",
            sourceLocation: sourceLocation)
        #expect(whole.error?.kind == row.error, "\(row.label): whole buffer: \(whole)", sourceLocation: sourceLocation)

        let perByte = byteByByte(row.bytes, limits: row.limits)
        expectSame(perByte, as: whole, "\(row.label): one byte at a time", sourceLocation)
        for index in 1..<max(row.bytes.count, 1) {
            let outcome = split(row.bytes, at: index, limits: row.limits)
            if !expectSame(outcome, as: whole, "\(row.label): split at \(index)", sourceLocation) { break }
        }

        // Pipelining: three copies of a good row in one buffer; a bad row after a good request.
        if row.error == nil {
            let tripled = row.bytes + row.bytes + row.bytes
            let expected = ParseOutcome(events: whole.events + whole.events + whole.events)
            #expect(
                ParserHarness.whole(tripled, limits: row.limits) == expected, "\(row.label): pipelined x3",
                sourceLocation: sourceLocation)
            expectSame(
                byteByByte(tripled, limits: row.limits), as: expected, "\(row.label): pipelined x3 per byte",
                sourceLocation)
        } else {
            let simple = Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
            let outcome = ParserHarness.whole(simple + row.bytes, limits: row.limits)
            let first = HTTPRequest(method: .get, target: "/", headers: ["Host": "a"])
            #expect(
                outcome.events == [.request(first)] + whole.events && outcome.error == whole.error,
                "\(row.label): after a pipelined request: \(outcome)", sourceLocation: sourceLocation)
        }
    }

    /// Same requests and the same error (kind and detail); `.expectContinue` may appear only just before a request
    /// carrying `Expect: 100-continue`, at most once each.
    @discardableResult
    static func expectSame(
        _ outcome: ParseOutcome, as reference: ParseOutcome, _ label: String,
        _ sourceLocation: SourceLocation
    ) -> Bool {
        let same = outcome.requests == reference.requests && outcome.error == reference.error
        #expect(same, "\(label): \(outcome) but whole buffer gave \(reference)", sourceLocation: sourceLocation)
        var pendingContinue = false
        var wellPlaced = true
        for event in outcome.events {
            switch event {
            case .expectContinue:
                wellPlaced = wellPlaced && !pendingContinue
                pendingContinue = true
            case .request(let request):
                if pendingContinue {
                    wellPlaced = wellPlaced && request.headers.containsToken("100-continue", in: "Expect")
                }
                pendingContinue = false
            }
        }
        #expect(wellPlaced, "\(label): misplaced expectContinue in \(outcome)", sourceLocation: sourceLocation)
        return same && wellPlaced
    }
}
