#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The few file operations the certificate store needs: modes set at creation, permission checks, and one rename
/// of a whole folder (FileManager's move is rename(2), which fails when the destination folder has files).
enum Files {
    private static var manager: FileManager { FileManager.default }

    /// The whole file at `path`.
    static func contents(of path: String) throws(CertificateError) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            let reason =
                !manager.fileExists(atPath: path)
                ? "no such file" : isDirectory(path) ? "it is a folder" : "permission denied"
            throw CertificateError(.unreadable, "cannot read \(path): \(reason)")
        }
    }

    /// Creates `path` with `mode` and writes `bytes` to it (in a folder only its owner can enter).
    static func createFile(_ path: String, _ bytes: [UInt8], mode: Int) throws(CertificateError) {
        guard manager.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: mode]) else {
            throw CertificateError(.unwritable, "cannot create \(path)")
        }
    }

    /// The permission bits of `path`, or nil when it does not exist.
    static func mode(_ path: String) throws(CertificateError) -> Int? {
        guard manager.fileExists(atPath: path) else { return nil }
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path  // the mode of what a link points to
        guard let attributes = try? manager.attributesOfItem(atPath: target),
            let mode = attributes[.posixPermissions] as? Int
        else { throw CertificateError(.unreadable, "cannot read the permissions of \(path)") }
        return mode & 0o7777
    }

    static func isDirectory(_ path: String) -> Bool {
        (try? manager.contentsOfDirectory(atPath: path)) != nil  // follows a symbolic link
    }

    /// Creates `path` and the folders above it that are missing, each with `mode`.
    static func makeDirectories(_ path: String, mode: Int) throws(CertificateError) {
        if isDirectory(path) { return }
        do {
            try manager.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
        } catch {
            if isDirectory(path) { return }  // made by another process meanwhile
            throw CertificateError(.unwritable, "cannot create the folder \(path): \(error)")
        }
    }

    /// A new empty folder beside `path`, mode 0700.
    static func makeTemporaryDirectory(beside path: String) throws(CertificateError) -> String {
        let temporary = "\(path).tmp-\(UUID().uuidString)"
        do {
            try manager.createDirectory(
                atPath: temporary, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CertificateError(.unwritable, "cannot create a folder beside \(path): \(error)")
        }
        return temporary
    }

    /// Renames the folder `source` to `destination` in one step; false when `destination` exists (with files).
    static func moveDirectory(_ source: String, to destination: String) -> Bool {
        (try? manager.moveItem(atPath: source, toPath: destination)) != nil
    }

    /// Deletes `path` and what it holds; errors are ignored.
    static func remove(_ path: String) {
        try? manager.removeItem(atPath: path)
    }

    static func parentPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
