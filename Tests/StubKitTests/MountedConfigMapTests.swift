import Foundation
import Testing

@testable import StubKit
@testable import StubLoading

/// Stubs in a Kubernetes ConfigMap mounted as a folder: the kubelet writes the files into a `..2026_…` folder, links
/// `..data` to it, and links each file name to `..data/NAME`. Each stub loads once.
@Suite("A ConfigMap mounted as the mappings folder")
struct MountedConfigMapTests {
    @Test("The kubelet's ..data and ..timestamp folders are not read: each stub loads once")
    func loadsEachStubOnce() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("configmap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let mappings = root.appendingPathComponent("mappings")
        let timestamped = mappings.appendingPathComponent("..2026_12_07_17_00_00.123456789")
        try FileManager.default.createDirectory(at: timestamped, withIntermediateDirectories: true)
        for name in ["a", "b"] {
            try Data(#"{"request": {"url": "/\#(name)"}, "response": {"body": "\#(name)"}}"#.utf8)
                .write(to: timestamped.appendingPathComponent("\(name).json"))
        }
        try FileManager.default.createSymbolicLink(
            atPath: mappings.appendingPathComponent("..data").path, withDestinationPath: timestamped.lastPathComponent)
        for name in ["a", "b"] {
            try FileManager.default.createSymbolicLink(
                atPath: mappings.appendingPathComponent("\(name).json").path, withDestinationPath: "..data/\(name).json"
            )
        }
        let result = try StubsDirectory.load(root, displayRoot: "stubs")
        #expect(result.mappings.map(\.source) == ["stubs/mappings/a.json", "stubs/mappings/b.json"])
    }

    @Test("No hint to use WireMock's root when that root is a link to the stubs directory (stubserver's image)")
    func noHintForTheLinkedRoot() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("linked-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let stubs = base.appendingPathComponent("stubs")
        try FileManager.default.createDirectory(
            at: stubs.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        let linked = base.appendingPathComponent("wiremock").path
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: stubs.path)
        #expect(StubsLayout.noStubsHint(root: stubs, wireMockRoot: linked) == nil)
        // A separate WireMock root with a mappings folder still gets the hint.
        let separate = base.appendingPathComponent("other").path
        try FileManager.default.createDirectory(atPath: separate + "/mappings", withIntermediateDirectories: true)
        #expect(
            StubsLayout.noStubsHint(root: stubs, wireMockRoot: separate)?.contains("use --stubs \(separate)") == true)
    }
}
