#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whether stubs may be written into a folder (`save`, recording), and the message when not.
///
/// A stubs folder copied into a test bundle is a build product: on a device it is read-only, and on a
/// simulator or Mac a write there succeeds but lands in a copy the next build replaces. Both are refused,
/// with a message that names a writable place instead.
public enum StubsFolderWritability {
    /// Bundle folder extensions: a path with one of these components is inside a built bundle.
    static let bundleExtensions: Set<String> = ["xctest", "app", "appex", "bundle", "framework"]

    /// `nil` when stubs may be written into `folder`, else why not and where to write instead.
    ///
    /// The folder (or, when it does not exist yet, its nearest existing ancestor) must not lie inside a
    /// bundle (`.xctest`, `.app`, `.bundle`, …) and must be writable for this process (`access(W_OK)`).
    /// - Parameter folder: the folder that would be written into.
    public static func problem(writingInto folder: URL) -> String? {
        let path = folder.standardizedFileURL.path
        if let bundle = enclosingBundle(of: path) {
            return "the stubs folder \(path) is inside the bundle \(bundle), a build copy that is read-only on a "
                + "device and replaced by the next build elsewhere; \(writableHint)"
        }
        var existing = URL(fileURLWithPath: path)
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            existing = existing.deletingLastPathComponent()
        }
        if !FileManager.default.isWritableFile(atPath: existing.path) {
            return "the stubs folder \(path) is read-only (\(existing.path) is not writable; inside the test "
                + "bundle?); \(writableHint)"
        }
        return nil
    }

    /// `nil` when `--watch` makes sense for `folder`; else why not. Edits go to the source folder, never
    /// to a copy inside a bundle, so watching that copy would never see one. A folder that is only
    /// read-only is fine to watch.
    /// - Parameter folder: the stubs folder's path.
    public static func watchProblem(_ folder: String) -> String? {
        let path = URL(fileURLWithPath: folder).standardizedFileURL.path
        guard let bundle = enclosingBundle(of: path) else { return nil }
        return "the stubs folder \(path) is inside the bundle \(bundle), a read-only build copy that edits never "
            + "reach; watch the source folder it was copied from instead"
    }

    /// The innermost bundle directory on `path`, or `nil`.
    static func enclosingBundle(of path: String) -> String? {
        var prefix = ""
        var found: String?
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if let dot = component.lastIndex(of: "."),
                bundleExtensions.contains(component[component.index(after: dot)...].lowercased())
            {
                found = prefix
            }
        }
        return found
    }

    private static let writableHint =
        "pass a writable folder instead, such as the source folder the bundle was "
        + "copied from (on a simulator or Mac), or NSTemporaryDirectory()/Recorded (then copy the files back)"
}
