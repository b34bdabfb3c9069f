import Foundation
import StubServerTestSupport
import StubTesting
import Testing

/// `times:` and `stubSequence`, in Swift and through `metadata.stubserver` in mapping JSON.
@Suite("Sequences and use limits")
struct SequenceTests {
    @Test("times: 1 answers once, then other stubs answer")
    func timesOnce() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) { () async throws in
            server.stub(.get("/feed"), .text("normal"))
            server.stub(.get("/feed"), .status(503), times: 1, priority: 1)
            #expect(try await HTTP.get(server, "/feed").status == 503)
            #expect(try await HTTP.get(server, "/feed").text == "normal")
            #expect(try await HTTP.get(server, "/feed").text == "normal")
            server.reset()
            #expect(try await HTTP.get(server, "/feed").status == 404)
        }
    }

    @Test("A sequence answers each use with the next response; the last repeats, or .thenNotFound")
    func sequence() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stubSequence(.get("/status"), [.text("pending"), .text("running"), .text("done")])
            server.stubSequence(.get("/token"), [.status(500), .text("t")], .thenNotFound)
            var statuses: [String] = []
            for _ in 0..<5 { statuses.append(try await HTTP.get(server, "/status").text) }
            #expect(statuses == ["pending", "running", "done", "done", "done"])
            var codes: [Int] = []
            for _ in 0..<3 { codes.append(try await HTTP.get(server, "/token").status) }
            #expect(codes == [500, 200, 404])
        }
    }

    @Test("Of 50 concurrent requests to a times: 10 stub, exactly 10 get it")
    func concurrentLimit() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/x"), .text("limited"), times: 10)
            let codes = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<50 { group.addTask { try await HTTP.get(server, "/x").status } }
                var codes: [Int] = []
                for try await code in group { codes.append(code) }
                return codes
            }
            #expect(codes.filter { $0 == 200 }.count == 10)
            #expect(codes.filter { $0 == 404 }.count == 40)
        }
    }

    @Test("metadata.stubserver gives files the same: times and then")
    func fromJSON() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            try server.stub(
                mappingJSON:
                    #"{"request": {"url": "/once"}, "response": {"body": "once"}, "metadata": {"stubserver": {"times": 1}}}"#
            )
            try server.stub(
                mappingJSON:
                    #"{"request": {"url": "/seq"}, "response": {"body": "a"}, "metadata": {"stubserver": {"then": [{"body": "b"}, {"status": 202, "body": "c"}]}}}"#
            )
            #expect(try await HTTP.get(server, "/once").text == "once")
            #expect(try await HTTP.get(server, "/once").status == 404)
            var bodies: [String] = []
            for _ in 0..<4 { bodies.append(try await HTTP.get(server, "/seq").text) }
            #expect(bodies == ["a", "b", "c", "c"])
            let listed = try await HTTP.get(server, "/__admin/mappings").text
            #expect(listed.contains(#""stubserver""#))
        }
    }
}
