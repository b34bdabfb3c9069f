#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// WireMock's Docker layout recognised by the CLI: when the stubs directory holds no stubs at all and
/// `/home/wiremock/mappings` (where WireMock's image reads them) holds some, `/home/wiremock` is served,
/// so a volume mounted as for WireMock (`-v "$PWD/wiremock:/home/wiremock"`) works in stubserver's image,
/// whose entrypoint passes `--stubs /stubs`.
enum StubsRoot {
    /// WireMock's image's root directory.
    static let wireMockDocker = "/home/wiremock"

    /// The directory to serve for `given`, and a note when it is not `given`.
    static func resolve(_ given: String, wireMockRoot: String = wireMockDocker) -> (path: String, note: String?) {
        let files = FileManager.default
        guard
            URL(fileURLWithPath: given).standardizedFileURL.path
                != URL(fileURLWithPath: wireMockRoot).standardizedFileURL.path,
            holdsNoStubs(given),
            let fallback = try? files.contentsOfDirectory(atPath: wireMockRoot + "/mappings"),
            !fallback.isEmpty
        else { return (given, nil) }
        return (
            wireMockRoot,
            "note: no stubs in '\(given)', but \(wireMockRoot)/mappings has some (WireMock's "
                + "Docker layout): serving '\(wireMockRoot)'"
        )
    }

    /// Whether `directory` has nothing to load: no entries in `mappings/` (or no `mappings/`) and no
    /// `.json` file of its own (a mappings folder mounted as the root, which the loader warns about).
    private static func holdsNoStubs(_ directory: String) -> Bool {
        let files = FileManager.default
        let own = (try? files.contentsOfDirectory(atPath: directory)) ?? []
        guard !own.contains(where: { $0.hasSuffix(".json") }) else { return false }
        let mappings = (try? files.contentsOfDirectory(atPath: directory + "/mappings")) ?? []
        return mappings.isEmpty
    }
}
