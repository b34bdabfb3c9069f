import Dispatch
import Foundation
import StubTestSupport
import XCTest

@testable import StubHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bodies pulled from an ``HTTPBodySource``, over real loopback sockets: whole and exact, bounded while the
/// client stalls, cancelled when it leaves.
final class BodySourceTests: XCTestCase {
    /// `total` bytes (`nil`: endless) of a known pattern, at most `pieceLimit` per call; counts what it does.
    final class PatternSource: HTTPBodySource, @unchecked Sendable {  // state under `state`'s lock
        struct State {
            var produced = 0
            var calls = 0
            var cancelled = false
            var callsStartedAfterCancel = 0
        }

        let total: Int?
        let pieceLimit: Int
        let state = LockedValue(State())
        let cancelledSignal = DispatchSemaphore(value: 0)

        init(total: Int?, pieceLimit: Int = 50_000) {
            self.total = total
            self.pieceLimit = pieceLimit
        }

        static func byte(at offset: Int) -> UInt8 { UInt8(truncatingIfNeeded: offset % 251) }

        func next(maxBytes: Int) -> [UInt8]? {
            state.withLock { state in
                state.calls += 1
                if state.cancelled { state.callsStartedAfterCancel += 1 }
                let count = min(maxBytes, pieceLimit, (total ?? .max) - state.produced)
                guard count > 0 else { return nil }
                let start = state.produced
                state.produced += count
                return (start..<start + count).map(Self.byte(at:))
            }
        }

        func cancel() {
            state.withLock { $0.cancelled = true }
            cancelledSignal.signal()
        }

        var produced: Int { state.withLock { $0.produced } }
    }

    private let executor = HTTPBodyExecutor { job in
        DispatchQueue.global().async(execute: job)
        return true
    }

    /// Answers `/again` with `again`, anything else with `source`'s body.
    private func server(_ source: PatternSource, contentLength: Int?) throws -> HTTPServer {
        let executor = executor
        return try startServer { request, responder in
            if request.path == "/again" { return responder.respond(.text("again")) }
            responder.respond(
                .pulled(
                    HTTPResponse(headers: ["Content-Type": "application/octet-stream"]),
                    contentLength: contentLength, from: source, on: executor))
        }
    }

    private func expectPattern(_ body: [UInt8], count: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(body.count, count, file: file, line: line)
        let firstWrong = body.indices.first { body[$0] != PatternSource.byte(at: $0) }
        XCTAssertNil(firstWrong, "the body differs from the source's bytes", file: file, line: line)
    }

    func testAKnownLengthBodyArrivesExactlyAndTheConnectionStaysOpen() throws {
        let total = 1_000_003
        let source = PatternSource(total: total, pieceLimit: 9_999)
        let server = try server(source, contentLength: total)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let response = try client.roundTrip("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(response.header("Content-Length"), String(total))
        XCTAssertNil(response.header("Transfer-Encoding"))
        expectPattern(response.body, count: total)
        XCTAssertNil(response.header("Connection"), "keep-alive")
        let second = try client.roundTrip("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(second.text, "again", "the connection serves the next request")
    }

    /// A paced body asks for at most one slice per tick (a rate of 1 MB/s in 10 ms ticks is 10,000-byte
    /// slices), arrives whole, and leaves the connection serving the next request. No timing is asserted.
    func testAPacedBodyIsAskedForASliceAtATimeAndArrivesWhole() throws {
        let total = 100_000
        let source = PatternSource(total: total, pieceLimit: .max)
        let executor = executor
        let server = try startServer { request, responder in
            if request.path == "/again" { return responder.respond(.text("again")) }
            responder.respond(
                .pulled(
                    HTTPResponse(), contentLength: total, from: source, on: executor,
                    pacing: .bytesPerSecond(1_000_000)),
                after: .milliseconds(20))
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let response = try client.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        expectPattern(response.body, count: total)
        XCTAssertGreaterThanOrEqual(source.state.withLock { $0.calls }, total / 10_000, "one slice per ask")
        XCTAssertEqual(try client.roundTrip("GET /again HTTP/1.1\r\nHost: x\r\n\r\n").text, "again")
    }

    /// `chunks(4, …)` of a 1,000,000-byte body: slices of 250,000 bytes, so at least 4 asks.
    func testADribbledBodyIsAskedForInItsChunks() throws {
        let total = 1_000_000
        let source = PatternSource(total: total, pieceLimit: .max)
        let executor = executor
        let server = try startServer { _, responder in
            responder.respond(
                .pulled(
                    HTTPResponse(), contentLength: total, from: source, on: executor,
                    pacing: .chunks(4, over: .milliseconds(100))))
        }
        defer { server.stop() }
        let response = try RawClient(port: server.port).roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        expectPattern(response.body, count: total)
        XCTAssertGreaterThanOrEqual(source.state.withLock { $0.calls }, 4)
    }

    func testAnUnknownLengthIsChunked() throws {
        let total = 300_001
        let server = try server(PatternSource(total: total, pieceLimit: 7_000), contentLength: nil)
        defer { server.stop() }
        let response = try RawClient(port: server.port).roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(response.header("Transfer-Encoding"), "chunked")
        expectPattern(response.body, count: total)
    }

    func testAnUnknownLengthToHTTP10EndsWithTheConnection() throws {
        let total = 200_000
        let server = try server(PatternSource(total: total), contentLength: nil)
        defer { server.stop() }
        let response = try RawClient(port: server.port).roundTrip("GET / HTTP/1.0\r\n\r\n")
        XCTAssertNil(response.header("Transfer-Encoding"))
        XCTAssertEqual(response.header("Connection"), "close")
        expectPattern(response.body, count: total)
    }

    func testHEADGetsTheHeadAndTheSourceIsCancelled() throws {
        let source = PatternSource(total: 10)
        let server = try server(source, contentLength: 10)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let response = try client.roundTrip("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n", head: true)
        XCTAssertEqual(response.header("Content-Length"), "10")
        XCTAssertEqual(source.cancelledSignal.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(source.state.withLock { $0.calls }, 0, "nothing is produced for HEAD")
        XCTAssertEqual(
            try client.roundTrip("GET /again HTTP/1.1\r\nHost: x\r\n\r\n").text, "again", "no stray body bytes")
    }

    func testASourceEndingShortOfTheLengthClosesTheConnection() throws {
        let server = try server(PatternSource(total: 1_000), contentLength: 5_000)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        XCTAssertThrowsError(
            try client.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), "closed mid-body, never a cut body as complete")
    }

    /// The client reads the head, then nothing while the source could give 16 MiB: the server queues at most
    /// the bound (the kernel's socket buffers hold the rest of what was produced), then the client reads
    /// everything, exactly.
    func testAStalledReaderHoldsAtMostTheBoundThenGetsEverything() throws {
        let total = 16 << 20
        let source = PatternSource(total: total, pieceLimit: 1 << 20)
        let server = try server(source, contentLength: total)
        defer { server.stop() }
        let client = try RawClient(port: server.port, timeout: .seconds(60))
        RawSocket.setReceiveBuffer(client.fd, bytes: 16_384)
        try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        // Wait (up to 60 s) until production has stopped moving for 20 polls: the stall is real.
        XCTAssertTrue(settled { source.produced }, "production never stalled")
        XCTAssertLessThan(source.produced, total, "a stalled reader holds production back")
        let stalled = server.context.streamedBodies.reading
        XCTAssertGreaterThan(stalled.pulls, 0)
        XCTAssertLessThanOrEqual(stalled.peakQueuedBytes, HTTPBodyStreaming.highWater)

        let response = try client.readResponse()
        expectPattern(response.body, count: total)
        let reading = server.context.streamedBodies.reading
        XCTAssertLessThanOrEqual(
            reading.peakQueuedBytes, HTTPBodyStreaming.highWater, "never more than the bound queued")
        XCTAssertGreaterThanOrEqual(reading.pulls, total / HTTPBodyStreaming.highWater, "produced piece by piece")
    }

    func testAClientLeavingCancelsAnEndlessSource() throws {
        let source = PatternSource(total: nil)
        let server = try server(source, contentLength: nil)
        defer { server.stop() }
        do {
            let client = try RawClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            var header = [UInt8](repeating: 0, count: 4096)
            XCTAssertGreaterThan(header.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }, 0)
        }  // closes the socket with bytes unread: a reset
        XCTAssertEqual(source.cancelledSignal.wait(timeout: .now() + 60), .success, "the source is cancelled")
        let state = source.state.withLock { $0 }
        XCTAssertLessThanOrEqual(state.callsStartedAfterCancel, 1, "at most the call already under way")
        XCTAssertEqual(server.context.streamedBodies.reading.cancellations, 1)
    }
}
