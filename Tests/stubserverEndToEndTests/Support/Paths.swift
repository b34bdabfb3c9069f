// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport

    /// Where the tests find the binary under test and the repository's files. No hard-coded paths.
    enum Paths {
        /// The repository root: three levels above this file (`Tests/stubserverEndToEndTests/Support/`).
        static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()

        /// The demo stubs, `Stubs/` in the repository.
        static let demoStubs = repositoryRoot.appendingPathComponent("Stubs", isDirectory: true)

        /// The folder SwiftPM built the products into (the `.xctest` bundle's folder). The test target
        /// depends on `stubserver`, so the binary is there.
        static var productsDirectories: [URL] {
            var candidates: [URL] = []
            #if os(macOS)
                // On macOS the test bundle is loaded by xctest: `…/debug/stubserverPackageTests.xctest`.
                for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                    candidates.append(bundle.bundleURL.deletingLastPathComponent())
                }
            #else
                // On Linux the `.xctest` is itself the executable; its folder is the main bundle.
                candidates.append(Bundle.main.bundleURL)
            #endif
            if let executable = CommandLine.arguments.first {
                candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
            }
            return candidates
        }

        /// The built `stubserver` executable; `STUBSERVER_E2E_BINARY=path` tests another build (e.g. release).
        static func stubserverBinary() throws -> URL {
            if let override = ProcessInfo.processInfo.environment["STUBSERVER_E2E_BINARY"], !override.isEmpty {
                return URL(fileURLWithPath: override)
            }
            for directory in productsDirectories {
                let binary = directory.appendingPathComponent("stubserver")
                if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
            }
            throw TestFailure(
                "stubserver binary not found in \(productsDirectories.map(\.path)); build it with `swift build`")
        }
    }
#endif
