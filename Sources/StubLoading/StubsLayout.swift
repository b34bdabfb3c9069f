#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Recognising stubs folders laid out not quite as expected, and saying what was expected.
public enum StubsLayout {
    /// Where WireMock's Docker image keeps its root directory (`mappings/`, `__files/`).
    public static let wireMockDockerRoot = "/home/wiremock"

    /// The stubs directory to load for `directory` as given: its parent when `directory` is itself a
    /// `mappings` folder (`--stubs Stubs/mappings`) with no `mappings/` inside, else `directory`.
    /// - Returns: the root and, when it was changed, a note saying so.
    public static func resolvedRoot(_ directory: URL) -> (root: URL, note: String?) {
        let standardized = directory.standardizedFileURL
        guard standardized.lastPathComponent == "mappings",
            PathStatus(standardized.path) == .directory,
            PathStatus(standardized.appendingPathComponent("mappings").path) == .missing
        else {
            return (directory, nil)
        }
        let parent = standardized.deletingLastPathComponent()
        let given = directory.relativePath
        let parentDisplay = given.hasSuffix("/mappings") ? String(given.dropLast("/mappings".count)) : parent.path
        return (
            parent,
            "note: '\(given)' is a mappings folder; serving '\(parentDisplay.isEmpty ? "/" : parentDisplay)' "
                + "as the stubs directory (mappings/ and __files/)"
        )
    }

    /// The warning for a stubs directory without `mappings/`: what was expected, and what was found instead.
    static func missingMappingsWarning(root: URL, display: String) -> String {
        var text =
            "warning: '\(display)' has no mappings/ folder, so no stubs are loaded from files; "
            + "expected WireMock's layout: \(display)/mappings/*.json (and \(display)/__files/ for bodies)"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let json = names.filter { $0.hasSuffix(".json") }.count
        if json > 0 {
            text += "; it holds \(json) .json file\(json == 1 ? "" : "s") directly: move them into \(display)/mappings/"
        } else if let hint = noStubsHint(root: root) {
            text += "; " + hint.dropFirst("warning: ".count)
        }
        return text
    }

    /// A hint when no stubs were found but WireMock's Docker root holds some: `--stubs /home/wiremock`. None when
    /// that root is the stubs directory itself, or a link to it (stubserver's image links it to `/stubs`).
    static func noStubsHint(root: URL, wireMockRoot: String = wireMockDockerRoot) -> String? {
        let docker = URL(fileURLWithPath: wireMockRoot)
        guard root.standardizedFileURL.path != docker.path,
            PathStatus(docker.appendingPathComponent("mappings").path) == .directory,
            BodyFiles.realPath(docker.path) != BodyFiles.realPath(root.path)
        else { return nil }
        return "warning: no stubs in '\(root.relativePath)', but \(wireMockRoot)/mappings exists (WireMock's "
            + "Docker layout): use --stubs \(wireMockRoot)"
    }
}
