import Dispatch
import Foundation
import StubHTTP
import StubTestSupport
import XCTest

/// Streams written as feeds: a write skipped while the reader is behind (the stream stays open and what was
/// written arrives whole), and work scheduled on the stream's loop that never runs once the stream ended.
final class FeedWriteTests: XCTestCase {
    typealias Recorder = StreamScriptTests.Recorder

    func testWritesPastTheBacklogAreSkippedNotCutAndTheOthersArriveWhole() throws {
        var configuration = HTTPServerConfiguration()
        configuration.maxStreamBacklog = 64 << 10  // a plain write past this would cut the connection
        let recorder = Recorder()
        let server = try startServer(configuration) { _, responder in _ = recorder.start(responder) }
        defer { server.stop() }
        let client = try RawClient(port: server.port, timeout: .seconds(30))
        try client.send("GET /feed HTTP/1.1\r\nHost: x\r\n\r\n")  // and does not read yet
        let stream = try recorder.nextStream()
        let dropped = LockedCounter()
        let pieces = 512, size = 16 << 10
        // More than the kernel's socket buffers hold on loopback, so the backlog builds and writes are skipped.
        let decided = DispatchSemaphore(value: 0)
        for index in 0..<pieces {
            let piece = [UInt8](repeating: UInt8(ascii: "a") + UInt8(index % 26), count: size)
            stream.write(piece, unlessBacklogExceeds: 32 << 10) { written in
                if !written { dropped.increment() }
                decided.signal()
            }
        }
        // The client reads only once every write was taken or skipped: reading earlier (as a loaded machine's
        // scheduling once let it) drains the socket, and nothing is ever skipped.
        for _ in 0..<pieces { XCTAssertEqual(decided.wait(timeout: .now() + 30), .success) }
        stream.finish()
        let response = try client.readResponse()
        XCTAssertEqual(recorder.outcomes(afterEnds: 1), [.finished])
        XCTAssertGreaterThan(dropped.value, 0, "no write was skipped: the reader was never behind")
        XCTAssertEqual(response.body.count, (pieces - dropped.value) * size)
        for start in stride(from: 0, to: response.body.count, by: size) {
            XCTAssertTrue(response.body[start..<start + size].allSatisfy { $0 == response.body[start] })
        }
    }

    func testALimitedSendBufferMakesAReaderThatStoppedFallBehindWithinAFewHundredKiB() throws {
        let recorder = Recorder()
        let server = try startServer { _, responder in _ = recorder.start(responder) }
        defer { server.stop() }
        let client = try RawClient(port: server.port, timeout: .seconds(30))
        try client.send("GET /feed HTTP/1.1\r\nHost: x\r\n\r\n")  // and does not read
        let stream = try recorder.nextStream()
        stream.limitSendBuffer(to: 64 << 10)
        let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 2 << 10)
        var written = 0
        let done = DispatchSemaphore(value: 0)
        let accepted = LockedCounter()
        // One write at a time, each after the last one's completion, up to 8 MiB (twice a grown Linux buffer).
        while written < 8 << 20 {
            let before = accepted.value
            stream.write(piece, unlessBacklogExceeds: 32 << 10) { wasWritten in
                if wasWritten { accepted.increment() }
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
            guard accepted.value > before else { break }
            written += piece.count
        }
        XCTAssertLessThan(written, 1 << 20, "the kernel took \(written) bytes from a client that does not read")
        stream.abort()
    }

    func testScheduledWorkRunsOnceDueAndNeverAfterTheStreamEnded() throws {
        let recorder = Recorder()
        // One event loop (the default): the marker's delayed answer is a timer in the same heap as the stream's work.
        let server = try startServer { request, responder in
            guard request.path != "/marker" else {
                return responder.respond(.text("marker"), after: .milliseconds(200))
            }
            _ = recorder.start(responder)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET /feed HTTP/1.1\r\nHost: x\r\n\r\n")
        let stream = try recorder.nextStream()
        let ran = DispatchSemaphore(value: 0)
        stream.schedule(after: .milliseconds(20)) {
            stream.write(Array("due".utf8))
            ran.signal()
        }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(try client.read(until: "due"))
        let late = LockedCounter()
        stream.schedule(after: .milliseconds(100)) { late.increment() }
        stream.abort()
        XCTAssertEqual(recorder.outcomes(afterEnds: 1), [.closed])
        // Timers fire in deadline order: once the marker, due later than the work, has answered, the work's
        // time has passed on the loop.
        XCTAssertEqual(
            try RawClient(port: server.port).roundTrip("GET /marker HTTP/1.1\r\nHost: x\r\n\r\n").text, "marker")
        XCTAssertEqual(late.value, 0, "work scheduled on a stream ran after the stream ended")
    }
}

/// A count shared with the server's threads.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
