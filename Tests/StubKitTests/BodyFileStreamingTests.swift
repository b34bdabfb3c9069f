import Foundation
import StubHTTP
import StubTestSupport
import XCTest

@testable import StubKit
@testable import StubLoading

/// A body file over ``BodyFiles/cacheLimit`` is not read at load but opened when served
/// and streamed from disk, so it costs no memory with its stub and a bounded buffer per connection.
/// Smaller files are kept with their stub, as before. Real sockets, real files.
final class BodyFileStreamingTests: XCTestCase {
    private var root: URL!
    /// 3 MiB of varied bytes: over the cache limit.
    private let big: [UInt8] = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("body-file-streaming-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("__files"), withIntermediateDirectories: true)
        try write("big.bin", big)
        try write("small.json", Array(#"{"small": true}"#.utf8))
        try Data(
            #"""
            {"mappings": [
             {"name": "big file", "request": {"method": "ANY", "url": "/big"}, "response": {"status": 200, "bodyFileName": "big.bin"}},
             {"request": {"method": "GET", "url": "/small"}, "response": {"status": 200, "bodyFileName": "small.json"}},
             {"request": {"method": "GET", "url": "/dribbled"},
              "response": {"status": 200, "bodyFileName": "big.bin", "chunkedDribbleDelay": {"numberOfChunks": 4, "totalDuration": 200}}}
            ]}
            """#.utf8
        ).write(to: root.appendingPathComponent("mappings/stubs.json"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: root.appendingPathComponent("__files/" + name))
    }

    private func startServer() throws -> StubServer {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        configuration.log = LogSink(.handler { _ in })
        let server = try StubServer(stubs: root, configuration: configuration)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// The head and the body of `method target`, read until the server closes.
    private func fetch(_ server: StubServer, _ target: String, method: String = "GET") throws -> (
        head: String, body: [UInt8]
    ) {
        let response = try LoopbackClient.request(port: server.port, method, target)
        return (response.head, response.body)
    }

    /// Compares bodies without printing megabytes on a failure.
    private func assertSame(_ body: [UInt8], _ expected: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        guard body != expected else { return }
        let differs =
            (0..<min(body.count, expected.count)).first { body[$0] != expected[$0] } ?? min(body.count, expected.count)
        XCTFail(
            "body of \(body.count) bytes, expected \(expected.count); first difference at \(differs)", file: file,
            line: line)
    }

    func testAFileOverTheCacheLimitStaysOnDiskUntilServedAndArrivesWhole() throws {
        let server = try startServer()
        let mapping = try XCTUnwrap(server.mappings.first { $0.name == "big file" })
        XCTAssertEqual(mapping.response.body, .file(name: "big.bin", bytes: []), "not read at load")
        XCTAssertEqual(mapping.response.streamedBodyFile?.name, "big.bin")

        let (head, body) = try fetch(server, "/big")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 "), head)
        XCTAssertTrue(head.contains("Content-Length: \(big.count)"), head)
        XCTAssertFalse(head.contains("Transfer-Encoding"), head)
        assertSame(body, big)
        XCTAssertGreaterThan(server.fileWorkers.startedThreads, 0, "read on the file workers, not on the loop")
        XCTAssertEqual(server.requests.last?.responseStatus, 200)
    }

    func testAFileUnderTheLimitIsKeptWithItsStub() throws {
        let server = try startServer()
        let mapping = try XCTUnwrap(server.mappings.first { $0.request.url == .url("/small") })
        XCTAssertEqual(
            mapping.response.body,
            ResponseDefinition.Body.file(name: "small.json", bytes: Array(#"{"small": true}"#.utf8)))
        XCTAssertNil(mapping.response.streamedBodyFile)
        XCTAssertEqual(try fetch(server, "/small").body, Array(#"{"small": true}"#.utf8))
        XCTAssertEqual(server.fileWorkers.startedThreads, 0)
    }

    func testTheFileIsReadWhenServedSoAnEditShowsAtOnce() throws {
        let server = try startServer()
        let edited = [UInt8](repeating: UInt8(ascii: "e"), count: (2 << 20) + 7)
        try write("big.bin", edited)
        let (head, body) = try fetch(server, "/big")
        XCTAssertTrue(head.contains("Content-Length: \(edited.count)"), head)
        assertSame(body, edited)
    }

    func testAFileGoneSinceLoadingAnswers500NamingTheStubAndTheFile() throws {
        let server = try startServer()
        try FileManager.default.removeItem(at: root.appendingPathComponent("__files/big.bin"))
        let (head, body) = try fetch(server, "/big")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 500 "), head)
        let text = String(decoding: body, as: UTF8.self)
        XCTAssertTrue(text.contains("big file"), text)
        XCTAssertTrue(text.contains("'bodyFileName' 'big.bin'"), text)
        XCTAssertTrue(text.contains("cannot be read: No such file or directory"), text)
        // The journal keeps the 500 that was sent (not the head of the 200 the stub would have sent).
        XCTAssertEqual(server.requests.last?.responseStatus, 500)
        XCTAssertEqual(server.requests.last?.matchedStub?.displayName, "big file")
    }

    func testHEADGetsTheFileLengthAndNoBody() throws {
        let server = try startServer()
        let (head, body) = try fetch(server, "/big", method: "HEAD")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 "), head)
        XCTAssertTrue(head.contains("Content-Length: \(big.count)"), head)
        XCTAssertEqual(body, [])
    }

    func testADribbledFileArrivesWhole() throws {
        let server = try startServer()
        let (head, body) = try fetch(server, "/dribbled")
        XCTAssertTrue(head.contains("Content-Length: \(big.count)"), head)
        assertSame(body, big)
    }

    func testSwiftStubsAndClosuresStreamTheFileToo() throws {
        let server = try startServer()
        server.stub(.get("/dsl"), .file("big.bin"))
        server.stub(.get("/closure")) { _ in .file("big.bin") }
        assertSame(try fetch(server, "/dsl").body, big)
        assertSame(try fetch(server, "/closure").body, big)
    }

    func testTheAdminFilesEndpointStreamsALargeFile() throws {
        let server = try startServer()
        let (head, body) = try fetch(server, "/__admin/files/big.bin")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 "), head)
        XCTAssertTrue(head.contains("Content-Length: \(big.count)"), head)
        assertSame(body, big)
    }

    /// A template needs the file's text, so a templated file body is read at load whatever its size.
    func testATemplatedFileIsReadWhole() throws {
        let server = try startServer()
        server.stub(.get("/templated"), ResponseDefinition.file("big.bin").templated(), name: "templated")
        let mapping = try XCTUnwrap(server.mappings.first { $0.name == "templated" })
        XCTAssertNil(mapping.response.streamedBodyFile)
        XCTAssertTrue(mapping.response.body == .file(name: "big.bin", bytes: big), "read whole")
    }

    /// A file cut short while it is sent ends the body early: the source says so, and the engine closes
    /// the connection instead of completing the response.
    func testAFileCutShortWhileStreamingEndsTheSourceEarly() throws {
        let url = root.appendingPathComponent("__files/big.bin")
        let source = BodyFileSource(try BodyFileReader(path: url.path))
        XCTAssertEqual(source.next(maxBytes: 1 << 20)?.count, 1 << 20)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 1 << 20)
        try handle.close()
        XCTAssertNil(source.next(maxBytes: 1 << 20), "nothing past the cut")
    }

    func testACancelledSourceReadsNoMore() throws {
        let source = BodyFileSource(try BodyFileReader(path: root.appendingPathComponent("__files/big.bin").path))
        XCTAssertEqual(source.next(maxBytes: 10)?.count, 10)
        source.cancel()
        XCTAssertNil(source.next(maxBytes: 10))
    }
}
