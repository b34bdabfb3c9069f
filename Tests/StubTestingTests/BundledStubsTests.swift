import Foundation
import StubServerTestSupport
import StubTesting
import Testing

/// A stubs folder that travels with the test bundle, and what a bundled folder refuses.
@Suite("Stubs in the test bundle")
struct BundledStubsTests {
    /// `root/Fake.xctest/Stubs` with `child/` inside, as Xcode copies a folder reference.
    private static func fakeBundle(child: String, name: String = "Stubs") throws -> (
        root: URL, bundle: Bundle, stubs: URL
    ) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bundled-\(UUID().uuidString)")
        let bundleURL = root.appendingPathComponent("Fake.xctest", isDirectory: true)
        try FileManager.default.createDirectory(
            at: bundleURL.appendingPathComponent("\(name)/\(child)"),
            withIntermediateDirectories: true)
        let bundle = try #require(Bundle(url: bundleURL))
        let stubs = (bundle.resourceURL ?? bundle.bundleURL).appendingPathComponent(name).standardizedFileURL
        return (root, bundle, stubs)
    }

    @Test(
        "Finds the folder inside the bundle first, with mappings/ or only __files/", arguments: ["mappings", "__files"])
    func findsBundledFolder(child: String) throws {
        let (root, bundle, stubs) = try Self.fakeBundle(child: child)
        defer { try? FileManager.default.removeItem(at: root) }
        // This file's package has a Stubs/ of its own above #filePath: the bundle still wins.
        let found = try StubsDirectory.locate(named: "Stubs", bundle: bundle, from: #filePath)
        #expect(found.path == stubs.path)
    }

    @Test("Falls back to the folder above the test file when the bundle has none")
    func fallsBackToFilePath() throws {
        let (root, bundle, _) = try Self.fakeBundle(child: "mappings", name: "Other")
        defer { try? FileManager.default.removeItem(at: root) }
        let found = try StubsDirectory.locate(named: "Stubs", bundle: bundle, from: #filePath)
        #expect(found.path == (try StubsDirectory.locate(from: #filePath)).path)
    }

    @Test("A missing folder lists every place looked at, and the hint names Copy Bundle Resources, not Bundle.module")
    func missingListsEveryPlace() throws {
        let name = "Nope-\(UUID().uuidString)"
        let (root, bundle, _) = try Self.fakeBundle(child: "mappings")
        defer { try? FileManager.default.removeItem(at: root) }
        // An empty folder of that name in the bundle does not count.
        let empty = (bundle.resourceURL ?? bundle.bundleURL).appendingPathComponent(name).standardizedFileURL
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let error = #expect(throws: StubsLocateError.self) {
            try StubsDirectory.locate(named: name, bundle: bundle, from: "/tmp/a/b/File.swift")
        }
        let places = try #require(error?.places)
        #expect(places.first == empty.path)
        #expect(
            places.contains(
                (Bundle.main.resourceURL ?? Bundle.main.bundleURL).appendingPathComponent(name).standardizedFileURL.path
            ))
        #expect(Array(places.suffix(4)) == ["/tmp/a/b/\(name)", "/tmp/a/\(name)", "/tmp/\(name)", "/\(name)"])
        let description = try #require(error?.description)
        for place in places { #expect(description.contains(place)) }
        #expect(description.contains("looked in \(places.count) places"))
        #expect(description.contains("Copy Bundle Resources"))
        #expect(description.contains("bundle: Bundle(for: Self.self)"))
        #expect(!description.contains("Bundle.module"))
    }

    @Test("Saving into a bundled folder is refused with a writable place named")
    func saveRefused() async throws {
        let (root, _, stubs) = try Self.fakeBundle(child: "mappings")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try StubServer.start(stubs: stubs)
        try await shuttingDown(server) { () async throws in
            server.stub(.get("/a"), .text("a"))
            let answer = try await HTTP.send(server, "POST", "/__admin/mappings/save")
            #expect(answer.status == 422)
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(text.contains("inside the bundle"))
            #expect(text.contains("NSTemporaryDirectory()"))
            let written = try FileManager.default.contentsOfDirectory(
                atPath: stubs.appendingPathComponent("mappings").path)
            #expect(written.isEmpty)
        }
    }

    @Test("Recording into a bundled folder is refused before anything is forwarded")
    func recordingRefused() async throws {
        let (root, _, stubs) = try Self.fakeBundle(child: "mappings")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try StubServer.start(stubs: stubs)
        try await shuttingDown(server) { () async throws in
            // Never contacted: the recording is refused before it starts.
            let target = try #require(URL(string: "http://127.0.0.1:9"))
            let error = #expect(throws: RecordingError.self) {
                try server.startRecording(RecordingSpec(target: target))
            }
            #expect(error?.description.contains("inside the bundle") == true)
            #expect(server.recordingStatus == .neverStarted)
        }
    }

    @Test("The writability check: bundles refused, a plain temporary folder accepted")
    func writability() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("w-\(UUID().uuidString)/Stubs")
        #expect(StubsFolderWritability.problem(writingInto: temporary) == nil)
        let bundled = URL(
            fileURLWithPath: "/var/containers/Bundle/Application/X/Runner.app/PlugIns/UITests.xctest/Stubs")
        let problem = try #require(StubsFolderWritability.problem(writingInto: bundled))
        #expect(
            problem.contains(
                "inside the bundle /var/containers/Bundle/Application/X/Runner.app/PlugIns/UITests.xctest,"))
        #expect(StubsFolderWritability.watchProblem(bundled.path) != nil)
        #expect(StubsFolderWritability.watchProblem(temporary.path) == nil)
    }
}
