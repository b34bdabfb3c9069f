import Foundation
import StubServerTestSupport
import StubTestSupport
import XCTest

@testable import StubHTTP
@testable import StubKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The big admin listings (journal, unmatched, find, stubs) over real sockets: sent as they are serialized,
/// byte-identical to the whole JSON the admin API built before, with exact `Content-Length`, at most the
/// engine's bound queued while the reader stalls, and cancelled when it leaves.
final class AdminListingStreamTests: XCTestCase {
    /// Sends `request` (with `Connection: close`) and reads to the end: the head and the body, whose length
    /// must be the announced `Content-Length`.
    private func fetch(
        _ port: Int, _ method: String, _ target: String, body: [UInt8] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (head: String, body: [UInt8]) {
        let response = try LoopbackClient.request(port: port, method, target, body: body, timeoutSeconds: 60)
        let text = response.head
        let responseBody = response.body
        XCTAssertEqual(
            contentLength(text), responseBody.count, "\(method) \(target): Content-Length", file: file, line: line)
        return (text, responseBody)
    }

    // The stalled-reader test reads its own socket by hand (small receive buffer, a pause after the head),
    // which LoopbackClient, reading at once to the end, must not do.
    private func readToEnd(_ fd: Int32, limit: Int = 256 << 20) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while received.count < limit {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            received += buffer[..<n]
        }
        return received
    }

    private func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first {
            bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
        }
    }

    private func contentLength(_ head: String) -> Int? {
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    private func pretty(_ value: JSONValue) -> String {
        String(decoding: AdminResponse.json(value).body, as: UTF8.self)
    }

    func testListingsAreByteIdenticalToTheWholeDocuments() throws {
        let server = try startQuietServer()
        defer { server.stop() }
        for index in 0..<40 {
            _ = try server.stub(
                mappingJSON: """
                    {"request": {"method": "GET", "urlPath": "/s\(index)"},
                     "response": {"status": 200, "headers": {"X-N": "\(index)"}, "body": "\(String(repeating: "b", count: 2_000))"}}
                    """)
        }
        for index in 0..<30 {
            _ = try fetch(server.port, "GET", "/s\(index)?q=\(index)&q=two")
            _ = try fetch(
                server.port, "POST", "/nope/\(index)", body: Array(String(repeating: "p\"\n", count: 1_000).utf8))
        }
        let entries = server.journal.entries
        var stubs: [String: StubMapping] = [:]
        for mapping in server.store.mappings where stubs[mapping.id] == nil { stubs[mapping.id] = mapping }
        func serveEvents(_ list: [LoggedRequest]) -> JSONValue {
            .array(list.map { $0.serveEventJSON(mapping: stubs[$0.matchedStub?.id ?? ""], detail: false) })
        }
        let newestFirst = Array(entries.reversed())
        let pullsBefore = server.http.context.streamedBodies.reading.pulls

        let all = try fetch(server.port, "GET", "/__admin/requests")
        XCTAssertEqual(
            String(decoding: all.body, as: UTF8.self),
            pretty(
                .object([
                    ("requests", serveEvents(newestFirst)), ("meta", ["total": JSONValue(entries.count)]),
                    ("requestJournalDisabled", false)
                ])))
        XCTAssertGreaterThan(all.body.count, HTTPBodyStreaming.highWater, "big enough to be streamed in several pieces")
        XCTAssertGreaterThan(server.http.context.streamedBodies.reading.pulls, pullsBefore + 1, "it was streamed")

        let limited = try fetch(server.port, "GET", "/__admin/requests?limit=5")
        XCTAssertEqual(
            String(decoding: limited.body, as: UTF8.self),
            pretty(
                .object([
                    ("requests", serveEvents(Array(newestFirst.prefix(5)))),
                    ("meta", ["total": JSONValue(entries.count)]),
                    ("requestJournalDisabled", false)
                ])))

        let unmatched = try fetch(server.port, "GET", "/__admin/requests/unmatched")
        XCTAssertEqual(
            String(decoding: unmatched.body, as: UTF8.self),
            pretty(
                .object([
                    ("requests", .array(newestFirst.filter { !$0.wasMatched }.map(\.requestJSON))),
                    ("requestJournalDisabled", false)
                ])))

        let found = try fetch(server.port, "POST", "/__admin/requests/find", body: Array(#"{"method": "POST"}"#.utf8))
        XCTAssertEqual(
            String(decoding: found.body, as: UTF8.self),
            pretty(
                .object([
                    ("requests", .array(entries.filter { $0.request.method == .post }.map(\.requestJSON))),
                    ("requestJournalDisabled", false)
                ])))

        let mappings = server.store.mappings
        // All of one priority: newest first, each with its place in the order they were added.
        func listing(_ positions: [Int]) -> JSONValue {
            .array(
                positions.map { position in
                    guard case .object(let members) = mappings[position].json else { return .null }
                    return .object(members + [("insertionIndex", JSONValue(position))])
                })
        }
        let listed = try fetch(server.port, "GET", "/__admin/mappings")
        XCTAssertEqual(
            String(decoding: listed.body, as: UTF8.self),
            pretty(
                .object([
                    ("mappings", listing(Array(mappings.indices.reversed()))),
                    ("meta", ["total": JSONValue(mappings.count)])
                ])))
        let page = try fetch(server.port, "GET", "/__admin/mappings?limit=3&offset=2")
        XCTAssertEqual(
            String(decoding: page.body, as: UTF8.self),
            pretty(
                .object([
                    ("mappings", listing(Array(mappings.indices.reversed().dropFirst(2).prefix(3)))),
                    ("meta", ["total": JSONValue(mappings.count)])
                ])))
    }

    /// `count` journaled 10 KB POSTs (about 25 KB of JSON each).
    private func fillJournal(_ server: StubServer, count: Int) {
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 10_240)
        for _ in 0..<count {
            server.journal.record(
                HTTPRequest(method: .post, target: "/fill", headers: ["Host": "127.0.0.1"], body: body),
                matchedStub: nil, status: 404)
        }
    }

    func testAStalledJournalReaderHoldsAtMostTheBoundThenGetsItWhole() throws {
        let server = try startQuietServer()
        defer { server.stop() }
        fillJournal(server, count: 250)  // about 6 MB of JSON: more than the kernel's socket buffers hold
        let fd = try RawSocket.connectLoopback(port: server.port, timeoutSeconds: 60)
        defer { close(fd) }
        RawSocket.setReceiveBuffer(fd, bytes: 16_384)
        try RawSocket.sendAll(
            fd, Array("GET /__admin/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while headEnd(received) == nil {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return XCTFail("closed before the head") }
            received += buffer[..<n]
        }
        // Until the server has stopped asking for pieces for 20 polls in a row (up to 60 s): the stall is real.
        XCTAssertTrue(settled { server.http.context.streamedBodies.reading.pulls }, "the listing never stalled")
        XCTAssertLessThanOrEqual(
            server.http.context.streamedBodies.reading.peakQueuedBytes, HTTPBodyStreaming.highWater,
            "while the reader stalls, the server holds at most the bound")

        received += readToEnd(fd)
        guard let split = headEnd(received) else { return XCTFail("no head") }
        let head = String(decoding: received[..<split], as: UTF8.self)
        let body = Array(received[(split + 4)...])
        XCTAssertEqual(contentLength(head), body.count, "exactly Content-Length bytes")
        let json = try JSONParser.parse(body)
        guard case .array(let events)? = json["requests"] else { return XCTFail("no requests array") }
        XCTAssertEqual(events.count, 250)
        let reading = server.http.context.streamedBodies.reading
        XCTAssertLessThanOrEqual(
            reading.peakQueuedBytes, HTTPBodyStreaming.highWater, "never more than the bound queued")
        XCTAssertGreaterThanOrEqual(
            reading.pulls, body.count / HTTPBodyStreaming.highWater, "serialized piece by piece")
    }

    func testAJournalReaderLeavingCancelsTheSerialization() throws {
        let server = try startQuietServer()
        defer { server.stop() }
        fillJournal(server, count: 100)
        do {
            let fd = try RawSocket.connectLoopback(port: server.port, timeoutSeconds: 60)
            defer { close(fd) }  // with bytes unread: a reset
            try RawSocket.sendAll(fd, Array("GET /__admin/requests HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            var taken = 0
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while taken < 65_536 {
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { return XCTFail("closed after \(taken) bytes") }
                taken += n
            }
        }
        XCTAssertTrue(
            eventuallyBlocking(timeout: .seconds(60)) { server.http.context.streamedBodies.reading.cancellations > 0 })
        XCTAssertEqual(
            server.http.context.streamedBodies.reading.cancellations, 1, "the client left: its listing is cancelled")
        let health = try fetch(server.port, "GET", "/__admin/health")
        XCTAssertTrue(health.head.hasPrefix("HTTP/1.1 200"), "the admin API still answers")
    }
}
