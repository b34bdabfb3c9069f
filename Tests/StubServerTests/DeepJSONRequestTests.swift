import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// Any client can send deeply nested JSON: to a stub with JSON body matchers (parsed on an event-loop thread)
/// and to the admin API. The server answers and keeps serving; under `.ci/run`'s Darwin emulation the loop
/// threads have 512 KiB stacks, as a Mac's default.
@Suite("Deeply nested JSON over the wire")
struct DeepJSONRequestTests {
    static func post(_ port: Int, _ path: String, _ body: String) throws -> String {
        // A generous read timeout: a megabyte of nesting takes the debug server seconds on a loaded machine.
        try LoopbackClient.request(port: port, "POST", path, body: Array(body.utf8), timeoutSeconds: 60).whole
    }

    @Test("JSON body matchers and the admin API survive hostile nesting; the server keeps serving")
    func hostileNesting() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            try server.stub(
                mappingJSON: #"""
                    {"request": {"method": "POST", "url": "/deep", "bodyPatterns": [
                        {"equalToJson": {"a": [1]}, "ignoreArrayOrder": true}, {"matchesJsonPath": "$..a"}]},
                     "response": {"status": 200, "body": "matched"}}
                    """#)
            let atLimit = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
            for body in [
                String(repeating: "[", count: 1_000_000), String(repeating: #"{"a":"#, count: 200_000), atLimit
            ] {
                let port = server.port
                let matched = try await offPool { try Self.post(port, "/deep", body) }  // megabyte bodies, off the pool
                #expect(matched.hasPrefix("HTTP/1.1 404"), "not JSON the matchers accept: no match, no crash")
                let admin = try await offPool { try Self.post(port, "/__admin/mappings", body) }
                #expect(admin.hasPrefix("HTTP/1.1 4"), "the admin API rejects it with a 4xx")
            }
            #expect(try Self.post(server.port, "/deep", #"{"a": [1]}"#).hasSuffix("matched"))
        }
    }
}
