import Foundation
import StubServerTestSupport
import StubTesting
import Testing

/// Recording from a second in-process server: what is kept, filtered and bounded, and the stubs
/// that stopping makes, in memory or in files.
@Suite("Recording")
struct RecordingTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0xFF, 0x00]

    /// An upstream answering JSON at `/users/octocat`, a PNG at `/avatar`, text at `/big`.
    static func upstream() throws -> StubServer {
        let server = try StubServer.start()
        server.stub(.get("/users/octocat"), .json(["login": "octocat", "id": 1]).header("Set-Cookie", "s=SECRET"))
        server.stub(.get("/avatar"), .data(png, contentType: "image/png"))
        server.stub(.get("/big"), .text(String(repeating: "x", count: 4096)))
        return server
    }

    @Test("Without a stubs directory, stopping serves the recorded stubs from memory, bodies inline and byte for byte")
    func inMemory() async throws {
        let upstream = try Self.upstream()
        let server = try StubServer.start()
        try await shuttingDown(upstream, server) {
            #expect(server.recordingStatus == .neverStarted)
            try server.startRecording(RecordingSpec(target: upstream.baseURL))
            #expect(server.recordingStatus == .recording)
            let user = try await HTTP.get(server, "/users/octocat", headers: ["Authorization": "token SECRET"])
            let avatar = try await HTTP.get(server, "/avatar")
            #expect(Array(avatar.body) == Self.png)

            let result = try server.stopRecording()
            #expect(server.recordingStatus == .stopped)
            #expect(result.summary.directory == "")
            #expect(result.mappings.count == 2)
            #expect(result.mappings.map(\.response.body).contains(.bytes(Self.png)))
            #expect(result.summary.dropped.map(\.name) == ["Authorization", "Set-Cookie"])
            #expect(!String(describing: result.mappings).contains("SECRET"))

            upstream.reset()
            #expect(try await HTTP.get(server, "/avatar").body == avatar.body)
            let replayed = try await HTTP.get(server, "/users/octocat")
            #expect(
                try JSONSerialization.jsonObject(with: replayed.body) as? NSDictionary
                    == (try JSONSerialization.jsonObject(with: user.body) as? NSDictionary))
            #expect(replayed.header("Set-Cookie") == nil)
        }
    }

    @Test("Only requests the filter matches are kept; beyond the byte bound exchanges are listed as skipped")
    func filterAndBound() async throws {
        let upstream = try Self.upstream()
        let server = try StubServer.start()
        try await shuttingDown(upstream, server) {
            var spec = RecordingSpec(
                target: upstream.baseURL, filter: RequestPattern(url: .urlPathPattern("/(avatar|big)")))
            spec.persist = false
            spec.maxBytes = 2048
            try server.startRecording(spec)
            _ = try await HTTP.get(server, "/users/octocat")
            _ = try await HTTP.get(server, "/avatar")
            let big = try await HTTP.get(server, "/big")
            #expect(big.body.count == 4096, "forwarded whatever the recording keeps")
            let result = try server.stopRecording()
            #expect(result.summary.stubs.map(\.url) == ["/avatar"])
            #expect(result.summary.skipped.map(\.request) == ["GET /big"])
            #expect(result.summary.description.contains("not recorded: the recording holds 2048 bytes at most"))
        }
    }

    @Test("A second start fails naming the current target; stopping twice fails; a bad target is refused")
    func startStopErrors() async throws {
        let upstream = try Self.upstream()
        let server = try StubServer.start()
        try await shuttingDown(upstream, server) {
            try server.startRecording(RecordingSpec(target: upstream.baseURL))
            let again = #expect(throws: RecordingError.self) {
                try server.startRecording(RecordingSpec(target: URL(string: "http://127.0.0.1:9")!))
            }
            #expect(again?.description.contains(upstream.baseURL.absoluteString) == true)
            _ = try server.stopRecording()
            #expect(throws: RecordingError.self) { _ = try server.stopRecording() }
            #expect(throws: RecordingError.self) {
                try server.startRecording(RecordingSpec(target: URL(string: "file:///tmp")!))
            }
        }
    }

    @Test("Written to a folder, bodies above the extraction thresholds go to __files, smaller ones stay inline")
    func extraction() async throws {
        let upstream = try Self.upstream()
        let server = try StubServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await shuttingDown(upstream, server) {
            var spec = RecordingSpec(target: upstream.baseURL, directory: folder)
            spec.writer.inlineBodies = BodyExtraction(textSizeThreshold: 1024, binarySizeThreshold: 1024)
            try server.startRecording(spec)
            _ = try await HTTP.get(server, "/avatar")
            _ = try await HTTP.get(server, "/big")
            let result = try server.stopRecording()
            #expect(result.summary.stubs.map(\.bodyFile) == [nil, "__files/get-big.txt"])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("__files").path) == [
                    "get-big.txt"
                ])
            let loaded = try StubServer(stubs: folder)
            #expect(loaded.mappings.map(\.response.body).contains(.bytes(Self.png)))
        }
    }
}
