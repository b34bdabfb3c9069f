import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// `POST /__admin/recordings/snapshot` over real sockets, against a second in-process server as the
/// upstream: `filters.ids` and `captureHeaders` with `caseInsensitive`, as WireMock records them.
@Suite("Recording: admin snapshot")
struct RecordingSnapshotAdminTests {
    /// An upstream answering text at `/a`, `/b` and `/c`.
    static func upstream() throws -> StubServer {
        let server = try StubServer.start()
        for name in ["a", "b", "c"] { server.stub(.get("/\(name)"), .text("upstream \(name)")) }
        return server
    }

    /// A server proxying every request to `upstream`, with `stubs` as its stubs directory.
    static func proxy(to upstream: StubServer, stubs: URL? = nil) throws -> StubServer {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        let server = try StubServer(stubs: stubs, configuration: configuration)
        try server.start()
        server.stub(.method("ANY", pathPattern: "/.*"), .proxy(to: upstream.baseURL))
        return server
    }

    static func post(_ server: StubServer, _ path: String, _ json: String) async throws -> Fetched {
        try await HTTP.send(server, "POST", path, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
    }

    @Test("filters.ids records only the serve events named; at start the field is a 422 saying it is for snapshot")
    func ids() async throws {
        let upstream = try Self.upstream()
        let server = try Self.proxy(to: upstream)
        try await shuttingDown(upstream, server) {
            for path in ["/a", "/b", "/c"] { #expect(try await HTTP.get(server, path).status == 200) }
            let events = try #require(
                try await HTTP.get(server, "/__admin/requests").json()["requests"] as? [[String: Any]])
            var ids: [String: String] = [:]
            for event in events {
                if let id = event["id"] as? String, let url = (event["request"] as? [String: Any])?["url"] as? String {
                    ids[url] = id
                }
            }
            let wanted = try [#require(ids["/c"]), #require(ids["/a"])]

            let snapshot = try await Self.post(
                server, "/__admin/recordings/snapshot",
                #"{"persist": false, "filters": {"ids": ["\#(wanted[0])", "\#(wanted[1])"]}}"#)
            #expect(snapshot.status == 200, "\(String(decoding: snapshot.body, as: UTF8.self))")
            let mappings = try #require(try snapshot.json()["mappings"] as? [[String: Any]])
            #expect(mappings.compactMap { ($0["request"] as? [String: Any])?["url"] as? String } == ["/a", "/c"])

            // Ids combine with the request pattern, and a UUID this server never gave names nothing.
            let both = try await Self.post(
                server, "/__admin/recordings/snapshot",
                #"""
                {"persist": false, "filters": {"url": "/a", "ids": ["\#(wanted[0])", "\#(wanted[1])",
                 "12345678-1234-4234-8234-123456789abc"]}}
                """#)
            #expect((try both.json()["mappings"] as? [[String: Any]])?.count == 1)

            let start = try await Self.post(
                server, "/__admin/recordings/start",
                #"{"targetBaseUrl": "\#(upstream.baseURL.absoluteString)", "filters": {"ids": ["\#(wanted[0])"]}}"#)
            #expect(start.status == 422)
            #expect(String(decoding: start.body, as: UTF8.self).contains("filter a snapshot only"))
            #expect(server.recordingStatus == .neverStarted)
        }
    }

    @Test("A header captured with caseInsensitive is written so, and the stub loaded back matches it in any case")
    func caseInsensitiveHeader() async throws {
        let upstream = try Self.upstream()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Self.proxy(to: upstream, stubs: folder)
        try await shuttingDown(upstream, server) {
            _ = try await HTTP.get(server, "/a", headers: ["Accept": "text/plain", "X-Client": "Ios"])
            let snapshot = try await Self.post(
                server, "/__admin/recordings/snapshot",
                #"{"captureHeaders": {"Accept": {"caseInsensitive": true}, "X-Client": {}}}"#)
            #expect(snapshot.status == 200, "\(String(decoding: snapshot.body, as: UTF8.self))")
            let mapping = try #require((try snapshot.json()["mappings"] as? [[String: Any]])?.first)
            let headers = try #require((mapping["request"] as? [String: Any])?["headers"] as? [String: Any])
            #expect(
                headers["Accept"] as? NSDictionary == ["equalTo": "text/plain", "caseInsensitive": true] as NSDictionary
            )
            #expect(headers["X-Client"] as? NSDictionary == ["equalTo": "Ios"] as NSDictionary)
        }

        let written = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("mappings").path)
        #expect(written.count == 1)
        let file = try Data(
            contentsOf: folder.appendingPathComponent("mappings").appendingPathComponent(try #require(written.first)))
        #expect(String(decoding: file, as: UTF8.self).contains(#""caseInsensitive""#))

        let replayed = try StubServer(stubs: folder)
        try replayed.start()
        try await shuttingDown(replayed) {
            let differentCase = try await HTTP.get(replayed, "/a", headers: ["Accept": "TEXT/Plain", "X-Client": "Ios"])
            #expect(differentCase.status == 200)
            #expect(String(decoding: differentCase.body, as: UTF8.self) == "upstream a")
            #expect(
                try await HTTP.get(replayed, "/a", headers: ["Accept": "application/json", "X-Client": "Ios"]).status
                    == 404)
            #expect(
                try await HTTP.get(replayed, "/a", headers: ["Accept": "text/plain", "X-Client": "IOS"]).status == 404,
                "X-Client was captured without caseInsensitive")
        }
    }
}
