import Foundation
import Testing

@testable import StubKit

/// What a Mac's file system does that Linux's usually does not: AppleDouble files beside stubs, and a
/// temporary directory reached through a symlink (`/var` → `/private/var` on macOS).
@Suite("Mac file system quirks")
struct MacFilesystemTests {
    /// A fresh directory under the temporary directory; the caller removes it.
    static func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mac-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("AppleDouble files (._name.json) are not loaded as stubs")
    func skipsAppleDouble() throws {
        let root = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let mappings = root.appendingPathComponent("mappings", isDirectory: true)
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try Data(#"{"request": {"url": "/a"}, "response": {}}"#.utf8).write(
            to: mappings.appendingPathComponent("a.json"))
        // What Finder writes on a FAT or SMB volume: binary resource-fork data, not JSON.
        try Data([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00]).write(
            to: mappings.appendingPathComponent("._a.json"))
        let result = try StubsDirectory.load(root, displayRoot: "Stubs")
        #expect(result.mappings.map(\.source) == ["Stubs/mappings/a.json"])
    }

    @Test("A stubs folder below a working directory reached through a symlink is shown relative to it")
    func relativeThroughSymlink() throws {
        let base = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let real = base.appendingPathComponent("private-var", isDirectory: true)
        try FileManager.default.createDirectory(
            at: real.appendingPathComponent("Stubs"), withIntermediateDirectories: true)
        let link = base.appendingPathComponent("var", isDirectory: true)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        // getcwd names the real directory; the caller names the stubs through the link (or the other way).
        #expect(
            StubsDirectory.displayPath(of: link.appendingPathComponent("Stubs"), workingDirectory: real.path) == "Stubs"
        )
        #expect(
            StubsDirectory.displayPath(of: real.appendingPathComponent("Stubs"), workingDirectory: link.path) == "Stubs"
        )
        #expect(
            StubsDirectory.displayPath(of: real.appendingPathComponent("Stubs"), workingDirectory: real.path) == "Stubs"
        )
        let elsewhere = URL(fileURLWithPath: "/elsewhere/Stubs")
        #expect(StubsDirectory.displayPath(of: elsewhere, workingDirectory: real.path) == "/elsewhere/Stubs")
    }
}
