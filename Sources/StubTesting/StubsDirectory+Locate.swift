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
    /// that built the tests. A UI test on a device, or tests shipped to another machine, should bundle
    /// the folder instead: in an Xcode test target add `Stubs` as a folder reference (or in SwiftPM
    /// `resources: [.copy("Stubs")]`) and use `Bundle.module.url(forResource: "Stubs", withExtension: nil)`
    /// (`Bundle(for: Self.self)` in an Xcode test bundle).
    /// - Parameters:
    ///   - name: the folder's name. Default `Stubs`.
    ///   - filePath: the file to start from; pass `#filePath` (the default is the caller's).
    /// - Returns: the folder's URL.
    /// - Throws: ``StubsLocateError`` listing the directories searched.
    public static func locate(named name: String = "Stubs", from filePath: String = #filePath) throws(StubsLocateError) -> URL {
        let fileManager = FileManager.default
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().standardizedFileURL
        var searched: [String] = []
        while true {
            let candidate = directory.appendingPathComponent(name, isDirectory: true)
            searched.append(directory.path)
            if isDirectory(candidate, fileManager),
               isDirectory(candidate.appendingPathComponent("mappings"), fileManager)
                || fileManager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
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

/// ``StubsDirectory/locate(named:from:)`` found no stubs folder.
public struct StubsLocateError: Error, Sendable, CustomStringConvertible {
    /// The folder name looked for.
    public let name: String
    /// The file the search started from.
    public let filePath: String
    /// The directories searched, nearest first.
    public let searched: [String]

    public var description: String {
        """
        no '\(name)' folder (with mappings/, or next to Package.swift) above \(filePath); \
        searched \(searched.count) directories from \(searched.first ?? "?") up to \(searched.last ?? "?"). \
        Create \(name)/mappings at the package root, pass another name, or bundle the folder and use \
        Bundle.module.url(forResource: "\(name)", withExtension: nil).
        """
    }
}
