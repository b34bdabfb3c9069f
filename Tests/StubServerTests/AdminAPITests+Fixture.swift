import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

extension AdminAPITests {
    /// A stubs directory with two file stubs and one body file; removed when released.
    final class Fixture: Sendable {
        let root: URL
        let server: StubServer

        static let fileStubID = "11111111-1111-4111-8111-111111111111"

        init(strictBodyFiles: Bool = false) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("admin-\(UUID().uuidString)")
            let mappings = root.appendingPathComponent("mappings")
            let files = root.appendingPathComponent("__files")
            try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            try Data(
                #"{"request": {"method": "GET", "url": "/file-a"}, "response": {"status": 200, "body": "A"}}"#.utf8
            )
            .write(to: mappings.appendingPathComponent("a.json"))
            try Data(
                #"""
                {"id": "\#(Self.fileStubID)", "request": {"method": "GET", "urlPath": "/file-b"},
                 "response": {"status": 200, "body": "B"}}
                """#.utf8
            ).write(to: mappings.appendingPathComponent("b.json"))
            try Data(#"{"from": "file"}"#.utf8).write(to: files.appendingPathComponent("hello.json"))
            var configuration = StubServer.Configuration()
            configuration.logsUnmatchedRequests = false
            configuration.strictBodyFiles = strictBodyFiles
            configuration.log = LogSink(.handler { _ in })
            server = try StubServer(stubs: root, configuration: configuration)
            try server.start()
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }

        func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> Fetched {
            try await HTTP.send(server, method, path, body: body.map { Data($0.utf8) })
        }

        /// The ids listed by `GET /__admin/mappings`, in the listed order.
        func listedIDs() async throws -> [String] {
            let listed = try await call("GET", "/__admin/mappings").json()
            return try #require(listed["mappings"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        }
    }
}
