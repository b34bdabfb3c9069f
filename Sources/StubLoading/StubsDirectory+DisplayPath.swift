#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StubsDirectory {
    /// The directory as a user would write it: relative to the working directory when it is below it.
    ///
    /// Compares like with like: `getcwd` gives the real path (`/private/var/folders/…` on macOS, the symlink's
    /// target where `TMPDIR` goes through one), while Foundation's standardizing strips `/private` and keeps
    /// other symlinks; so both sides are standardized, then, failing that, both are resolved.
    package static func displayPath(
        of directory: URL,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> String {
        let path = directory.standardizedFileURL.path
        let cwd = URL(fileURLWithPath: workingDirectory, isDirectory: true)
        let candidates = [
            (path, cwd.standardizedFileURL.path),
            (directory.resolvingSymlinksInPath().path, cwd.resolvingSymlinksInPath().path)
        ]
        for (full, base) in candidates where full.hasPrefix(base + "/") {
            return String(full.dropFirst(base.count + 1))
        }
        return path
    }
}
