import Dispatch
import Foundation
import StubHTTP
import StubTestSupport
import XCTest

/// Streams written over time (``HTTPResponseStream``): scripted steps on loop timers, pushes between them,
/// the three ends, `onEnd` told once, and the byte bound on a reader that stops reading.
final class StreamScriptTests: XCTestCase {
    /// Records `onEnd` outcomes and the streams started, for the test thread.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var outcomes: [HTTPStreamOutcome] = []
        private var streams: [HTTPResponseStream] = []
        private let ended = DispatchSemaphore(value: 0)
        private let started = DispatchSemaphore(value: 0)

        func start(_ responder: HTTPResponder, probe: [UInt8]? = nil) -> HTTPResponseStream {
            let stream = responder.startStreaming(.text(""), probe: probe) { outcome in self.end(outcome) }
            lock.withLock { streams.append(stream) }
            started.signal()
            return stream
        }

        private func end(_ outcome: HTTPStreamOutcome) {
            lock.withLock { outcomes.append(outcome) }
            ended.signal()
        }

        /// The next stream started, within 10 s.
        func nextStream() throws -> HTTPResponseStream {
            XCTAssertEqual(started.wait(timeout: .now() + 10), .success)
            return try XCTUnwrap(lock.withLock { streams.last })
        }

        /// The outcomes once `count` streams ended (within 10 s each).
        func outcomes(afterEnds count: Int) -> [HTTPStreamOutcome] {
            for _ in 0..<count { XCTAssertEqual(ended.wait(timeout: .now() + 10), .success) }
            return lock.withLock { outcomes }
        }
    }

    static func steps(_ parts: [String], every delay: Duration) -> [HTTPStreamStep] {
        parts.map { HTTPStreamStep(after: delay, Array($0.utf8)) }
    }

    func testScriptWritesItsStepsInOrderThenFinishesAndTheConnectionIsKept() throws {
        let recorder = Recorder()
        let server = try startServer { _, responder in
            recorder.start(responder).play(
                Self.steps(["one ", "two ", "three"], every: .milliseconds(20)), then: .finish)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for round in 1...2 {
            let response = try client.roundTrip("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(response.header("Transfer-Encoding"), "chunked")
            XCTAssertEqual(response.text, "one two three")
            XCTAssertEqual(recorder.outcomes(afterEnds: 1), Array(repeating: .finished, count: round))
        }
        // HTTP/1.0: the body ends with the connection.
        let legacy = try RawClient(port: server.port).roundTrip("GET /s HTTP/1.0\r\n\r\n")
        XCTAssertEqual(legacy.text, "one two three")
    }

    func testAnOpenStreamTakesPushesBetweenStepsUntilFinished() throws {
        let recorder = Recorder()
        let server = try startServer { request, responder in
            guard request.path == "/s" else { return responder.respond(.text("plain")) }
            recorder.start(responder).play(Self.steps(["first;"], every: .zero), then: .stayOpen)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(try client.read(until: "first;"))
        let stream = try recorder.nextStream()
        stream.write(Array("pushed;".utf8))
        XCTAssertTrue(try client.read(until: "pushed;"))
        stream.play(Self.steps(["late"], every: .milliseconds(10)), then: .finish)
        XCTAssertEqual(try client.readResponse().text, "first;pushed;late")
        XCTAssertEqual(recorder.outcomes(afterEnds: 1), [.finished])
        stream.write(Array("after the end".utf8))  // ignored
        XCTAssertEqual(try client.roundTrip("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n").text, "plain")
    }

    func testAbortCutsTheBodyAndEndsClosed() throws {
        let recorder = Recorder()
        let server = try startServer { _, responder in
            recorder.start(responder).play(Self.steps(["part"], every: .milliseconds(5)), then: .abort)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        XCTAssertThrowsError(try client.roundTrip("GET /s HTTP/1.1\r\nHost: x\r\n\r\n"))
        XCTAssertEqual(recorder.outcomes(afterEnds: 1), [.closed])
    }

    func testAClientThatLeavesEndsItsOpenStreamClosedThroughTheProbe() throws {
        let recorder = Recorder()
        let server = try startServer { _, responder in
            recorder.start(responder, probe: Array(":\n\n".utf8)).play(
                Self.steps(["hello"], every: .zero), then: .stayOpen)
        }
        defer { server.stop() }
        do {
            let client = try RawClient(port: server.port)
            try client.send("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertTrue(try client.read(until: "hello"))
        }  // closed here
        XCTAssertEqual(recorder.outcomes(afterEnds: 1), [.closed])
    }

    func testAClientThatOnlyShutsItsSendingSideKeepsItsStream() throws {
        let recorder = Recorder()
        let server = try startServer { _, responder in
            recorder.start(responder, probe: Array(":\n\n".utf8)).play(
                Self.steps(["a;", "b"], every: .milliseconds(100)), then: .finish)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(try client.read(until: "a;"))
        client.shutdownWrite()
        XCTAssertEqual(try client.readResponse().text, "a;:\n\nb")  // the probe is part of the body
        XCTAssertEqual(recorder.outcomes(afterEnds: 1), [.finished])
    }

    func testAHeadRequestsStreamEndsAtOnceWithoutABody() throws {
        let recorder = Recorder()
        let server = try startServer { request, responder in
            guard request.path == "/s" else { return responder.respond(.text("plain")) }
            recorder.start(responder).play(Self.steps(["never sent"], every: .milliseconds(5)), then: .stayOpen)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let response = try client.roundTrip("HEAD /s HTTP/1.1\r\nHost: x\r\n\r\n", head: true)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(recorder.outcomes(afterEnds: 1), [.finished])
        XCTAssertEqual(try client.roundTrip("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n").text, "plain")
    }

    func testAReaderThatStopsReadingIsCutAtTheBacklogBound() throws {
        var configuration = HTTPServerConfiguration()
        configuration.maxStreamBacklog = 64 << 10
        let recorder = Recorder()
        let server = try startServer(configuration) { _, responder in
            _ = recorder.start(responder)
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")  // and never reads
        let stream = try recorder.nextStream()
        let piece = [UInt8](repeating: 0x61, count: 64 << 10)
        // More than the kernel's socket buffers hold on loopback; the writes stop counting once cut.
        for _ in 0..<512 { stream.write(piece) }
        XCTAssertEqual(recorder.outcomes(afterEnds: 1), [.closed])
    }
}

extension StreamScriptTests {
    func testStoppingDoesNotWaitForAnOpenStream() throws {
        var configuration = HTTPServerConfiguration()
        configuration.shutdownGracePeriod = .seconds(600)
        let recorder = Recorder()
        let server = try startServer(configuration) { _, responder in
            recorder.start(responder).play(Self.steps(["open"], every: .zero), then: .stayOpen)
        }
        let client = try RawClient(port: server.port)
        try client.send("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(try client.read(until: "open"))
        let stopped = ContinuousClock().measure { server.stop() }
        XCTAssertLessThan(stopped, .seconds(200), "stop() waited for an open stream")
        XCTAssertEqual(recorder.outcomes(afterEnds: 1), [.closed])
    }
}
