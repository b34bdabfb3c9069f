import Foundation
import StubHTTP
import StubTestSupport
import XCTest

@testable import StubKit

/// A rendered body past ``TemplateOutput/spillThreshold`` moves to an unlinked temporary file while it
/// renders (on a render thread), and is sent from that file a bounded piece at a time, as a large body file
/// is: the render is never held whole in memory. Real sockets.
final class SpilledRenderTests: XCTestCase {
    /// 64 KiB of varied text, repeated once per path segment with the segment's index after it.
    private static let block: String = {
        var bytes: [UInt8] = []
        for index in 0..<(64 << 10) { bytes.append(UInt8(97 + (index * 7 + index / 26) % 26)) }
        return String(decoding: bytes, as: UTF8.self)
    }()

    private static func expected(segments: Int) -> [UInt8] {
        (0..<segments).flatMap { Array(block.utf8) + Array("\($0)".utf8) }
    }

    private func startServer(maxOutputBytes: Int = TemplateLimits().maxOutputBytes) throws -> StubServer {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        configuration.log = LogSink(.handler { _ in })
        configuration.templateLimits.maxOutputBytes = maxOutputBytes
        let server = try StubServer(configuration: configuration)
        try server.start()
        addTeardownBlock { server.stop() }
        _ = try server.stub(
            mappingJSON: """
                {"name": "big render", "request": {"method": "ANY", "urlPathPattern": "/big/.*"},
                 "response": {"status": 200, "transformers": ["response-template"],
                              "body": "{{#each request.pathSegments}}\(Self.block){{@index}}{{/each}}"}}
                """)
        _ = try server.stub(
            mappingJSON: #"""
                {"name": "json echo", "request": {"method": "POST", "url": "/echo"},
                 "response": {"status": 200, "transformers": ["response-template"],
                              "jsonBody": {"a": "{{{request.body}}}", "b": ["{{{request.body}}}", 1], "c": "{{{request.body}}}"}}}
                """#)
        return server
    }

    /// The head and the body of `method target`, read until the server closes.
    private func fetch(_ server: StubServer, _ target: String, method: String = "GET", body: [UInt8] = []) throws -> (
        head: String, body: [UInt8]
    ) {
        let response = try LoopbackClient.request(port: server.port, method, target, body: body)
        return (response.head, response.body)
    }

    /// The render files in the temporary folder: none should be left, as each is unlinked once made.
    private func leftoverRenderFiles() -> [String] {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasPrefix("stubserver-render-")
        }
    }

    func testARenderPastTheSpillThresholdArrivesWholeWithItsLength() throws {
        let server = try startServer()
        let segments = 48  // about 3 MiB
        let (head, body) = try fetch(server, "/big" + String(repeating: "/s", count: segments - 1))
        let expected = Self.expected(segments: segments)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200"), head)
        XCTAssertTrue(head.contains("Content-Length: \(expected.count)"), head)
        XCTAssertEqual(body.count, expected.count)
        XCTAssertTrue(body == expected, "the body differs from the render")
        XCTAssertEqual(leftoverRenderFiles(), [], "render files are unlinked when made")

        let (headOnly, nothing) = try fetch(
            server, "/big" + String(repeating: "/s", count: segments - 1), method: "HEAD")
        XCTAssertTrue(headOnly.contains("Content-Length: \(expected.count)"), headOnly)
        XCTAssertEqual(nothing, [])
    }

    func testAJSONBodyPastTheSpillThresholdStaysValidJSON() throws {
        let server = try startServer()
        let text = String(repeating: "0123456789\"\\", count: 40_000)  // 480 KB; escaped, 560 KB per string
        let (head, body) = try fetch(server, "/echo", method: "POST", body: Array(text.utf8))
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200"), head)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        XCTAssertEqual(json["a"] as? String, text)
        XCTAssertEqual((json["b"] as? [Any])?.first as? String, text)
        XCTAssertEqual(json["c"] as? String, text)
    }

    func testASpilledRenderThatReachesTheOutputLimitIsA500NamingIt() throws {
        let server = try startServer(maxOutputBytes: 2 << 20)
        let (head, body) = try fetch(server, "/big" + String(repeating: "/s", count: 47))
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 500"), head)
        XCTAssertTrue(
            String(decoding: body, as: UTF8.self).contains("stub 'big render'"), String(decoding: body, as: UTF8.self))
        XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("the template limit of 2097152 output bytes"))
        XCTAssertEqual(leftoverRenderFiles(), [])
    }

    /// Below the threshold, or where spilling is not allowed (an event loop's render), the body stays in memory.
    func testOnlyARenderThatMaySpillAndIsPastTheThresholdSpills() throws {
        let template = try ResponseTemplate(
            .text("{{#each request.pathSegments}}\(Self.block){{@index}}{{/each}}"),
            stubID: "id", stubName: "big")
        let request = HTTPRequest(method: .get, target: "/big" + String(repeating: "/s", count: 7))
        func render(spills: Bool) throws -> ResponseTemplate.Rendered {
            try template.render(
                request, pathParameters: [:], serverOrigin: "http://localhost", limits: TemplateLimits(), spills: spills
            ).get()
        }
        let inMemory = try render(spills: false)
        XCTAssertNil(inMemory.spilledBody)
        XCTAssertEqual(inMemory.response.body, Self.expected(segments: 8))

        let spilled = try render(spills: true)
        let file = try XCTUnwrap(spilled.spilledBody)
        XCTAssertEqual(spilled.response.body, [])
        XCTAssertEqual(file.size, Self.expected(segments: 8).count)
        let reader = try BodyFileReader(spilled: file)
        var read: [UInt8] = []
        while let piece = reader.read(maxBytes: 100_000), !piece.isEmpty { read += piece }
        XCTAssertTrue(read == Self.expected(segments: 8))

        let small = try template.render(
            HTTPRequest(method: .get, target: "/big"), pathParameters: [:], serverOrigin: "http://localhost",
            limits: TemplateLimits(), spills: true
        ).get()
        XCTAssertNil(small.spilledBody, "64 KiB stays in memory")
    }
}
