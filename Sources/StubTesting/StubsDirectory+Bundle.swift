import Foundation

extension StubsDirectory {
    /// Finds a stubs folder that travels with the test bundle: first inside `bundle`, `Bundle.main` and
    /// every loaded bundle, then (on a simulator or Mac) above the test file as ``locate(named:from:)``.
    ///
    /// In a bundle, the folder is `resourceURL/name` holding `mappings/` or `__files/`: add it to the
    /// test target as a folder reference (Xcode: "Create folder references", a blue folder, listed in
    /// Build Phases › Copy Bundle Resources). On a device `#filePath` names a path on the Mac that built
    /// the tests, so there only the bundles are searched.
    ///
    /// ```swift
    /// // A UI-test target with Stubs/ as a folder reference: works on a device, a simulator and a Mac.
    /// let stubs = try StubsDirectory.locate(named: "Stubs", bundle: Bundle(for: Self.self))
    /// let server = try startStubServer(stubs: stubs)
    /// ```
    ///
    /// A bundled folder is a build copy: recording into it and `save` are refused
    /// (``StubsFolderWritability``); record into the source folder or a temporary one.
    /// - Parameters:
    ///   - name: the folder's name. Default `Stubs`.
    ///   - bundle: the test bundle, searched first (`Bundle(for: Self.self)`; `Bundle.module` in a SwiftPM
    ///     target with `resources: [.copy("Stubs")]`); `nil` searches only the main and loaded bundles.
    ///   - filePath: the file to walk up from; pass `#filePath` (the default is the caller's).
    /// - Returns: the folder's URL.
    /// - Throws: ``StubsLocateError`` listing every place looked at.
    public static func locate(
        named name: String = "Stubs", bundle: Bundle?,
        from filePath: String = #filePath
    ) throws(StubsLocateError) -> URL {
        var candidates: [String] = []
        for root in bundleResourceRoots(first: bundle) {
            let candidate = root.appendingPathComponent(name, isDirectory: true)
            if candidates.contains(candidate.path) { continue }
            candidates.append(candidate.path)
            if hasStubs(candidate) { return candidate }
        }
        #if (os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)) && !targetEnvironment(simulator) && !targetEnvironment(macCatalyst)
            var error = StubsLocateError(name: name, filePath: filePath, searched: [])
            error.skippedFilePathOnDevice = true
            error.bundleCandidates = candidates
            throw error
        #else
            do {
                return try locate(named: name, from: filePath)
            } catch {
                var error = error
                error.bundleCandidates = candidates
                throw error
            }
        #endif
    }

    /// The resource folders of `first`, the main bundle and every loaded bundle, in that order.
    static func bundleResourceRoots(first: Bundle?) -> [URL] {
        let bundles = [first, Bundle.main].compactMap { $0 } + Bundle.allBundles
        return bundles.map { ($0.resourceURL ?? $0.bundleURL).standardizedFileURL }
    }

    /// A folder holding `mappings/` or `__files/`.
    private static func hasStubs(_ folder: URL) -> Bool {
        ["mappings", "__files"].contains { child in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(child).path,
                isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }
}
