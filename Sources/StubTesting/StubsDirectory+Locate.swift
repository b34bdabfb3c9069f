import Foundation

extension StubsDirectory {
    /// Finds a stubs folder from a test file, without absolute paths: walks up from the directory of
    /// `filePath` and returns the first `ancestor/name` that is a stubs root.
    ///
    /// A folder counts when it holds `mappings/`, or when it sits at a package root (next to
    /// `Package.swift`). So `<package>/Stubs` is found from any test file of the package, and a package
    /// nested in a repository (like `Examples/GitHubUserTests`) finds the repository's `Stubs/` when it
    /// has none of its own.
    ///
    /// ```swift
    /// // Tests/AppTests/ProfileTests.swift, stubs in <package root>/Stubs:
    /// let server = try startStubServer(stubs: StubsDirectory.locate(from: #filePath))
    /// ```
    ///
    /// `#filePath` is where the file was compiled, so this suits `swift test` and Xcode on the machine
    /// that built the tests. A UI test on a device, or tests shipped to another machine, should copy the
    /// folder into the test bundle and use ``locate(named:bundle:from:)``, which looks there first.
    /// - Parameters:
    ///   - name: the folder's name. Default `Stubs`.
    ///   - filePath: the file to start from; pass `#filePath` (the default is the caller's).
    /// - Returns: the folder's URL.
    /// - Throws: ``StubsLocateError`` listing the directories searched.
    public static func locate(named name: String = "Stubs", from filePath: String = #filePath) throws(StubsLocateError)
        -> URL
    {
        let fileManager = FileManager.default
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().standardizedFileURL
        var searched: [String] = []
        while true {
            let candidate = directory.appendingPathComponent(name, isDirectory: true)
            searched.append(directory.path)
            if isDirectory(candidate, fileManager),
                isDirectory(candidate.appendingPathComponent("mappings"), fileManager)
                    || fileManager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path)
            {
                return candidate
            }
            let parent = directory.deletingLastPathComponent().standardizedFileURL
            if parent.path == directory.path || directory.path == "/" { break }
            directory = parent
        }
        throw StubsLocateError(name: name, filePath: filePath, searched: searched)
    }

    private static func isDirectory(_ url: URL, _ fileManager: FileManager) -> Bool {
        var isDirectory: ObjCBool = false
        return fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

/// ``StubsDirectory/locate(named:from:)`` or ``StubsDirectory/locate(named:bundle:from:)`` found no stubs
/// folder; ``description`` lists every place looked at.
public struct StubsLocateError: Error, Sendable, CustomStringConvertible {
    /// The folder name looked for.
    public let name: String
    /// The file the search started from.
    public let filePath: String
    /// The directories searched above `filePath`, nearest first (`directory/name` was looked at).
    public let searched: [String]
    /// The folders looked at inside bundles (`resourceURL/name`), in search order.
    public var bundleCandidates: [String] = []
    /// Whether the search beside `filePath` was skipped because this is a device, where `#filePath`
    /// names a path on the Mac that built the tests.
    public var skippedFilePathOnDevice = false

    /// Every path looked at, in search order.
    public var places: [String] {
        bundleCandidates + searched.map { URL(fileURLWithPath: $0).appendingPathComponent(name).path }
    }

    public var description: String {
        var text = "no '\(name)' folder found; looked in \(places.count) places"
        if !bundleCandidates.isEmpty {
            text += "\n  in the loaded bundles (a folder with mappings/ or __files/):"
            for place in bundleCandidates { text += "\n    \(place)" }
        }
        if skippedFilePathOnDevice {
            text += "\n  not beside \(filePath): on a device that path is on the Mac that built the tests"
        } else {
            text += "\n  above \(filePath) (with mappings/, or next to Package.swift), \(searched.count) directories:"
            for place in searched { text += "\n    \(URL(fileURLWithPath: place).appendingPathComponent(name).path)" }
        }
        text += """

            To use it on a device, copy it into the test bundle: in Xcode drag the '\(name)' folder into the \
            project, choose "Create folder references" (a blue folder) and tick the UI-test target, so Build \
            Phases › Copy Bundle Resources lists it; then call StubsDirectory.locate(named: "\(name)", \
            bundle: Bundle(for: Self.self)). On a simulator or Mac, creating \(name)/mappings beside the tests also works.
            """
        return text
    }
}
