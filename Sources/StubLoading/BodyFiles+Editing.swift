#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Listing, writing and deleting files under `__files` (`/__admin/files`), confined to the folder as
/// ``BodyFiles/read(_:)`` is: no absolute names, no `..`, no symlink that leads outside.
extension BodyFiles {
    /// Every regular file under the folder, as names relative to it (`users/octocat.json`), sorted.
    /// Symlinks that resolve outside the folder are left out. Empty when the folder does not exist.
    public func list() -> [String] {
        guard let folder = Self.realPath(directory.path) else { return [] }
        guard let subpaths = try? FileManager.default.subpathsOfDirectory(atPath: folder) else { return [] }
        var names: [String] = []
        for name in subpaths {
            guard let resolved = Self.realPath(folder + "/" + name), resolved.hasPrefix(folder + "/") else { continue }
            if PathStatus(resolved) == .file {
                names.append(name)
            }
        }
        return names.sorted()
    }

    /// Writes `bytes` to the file `name`, creating folders below `__files` as needed. The file is
    /// replaced atomically (a symlink at `name` is replaced, not followed).
    /// - Throws: ``ReadError`` if the name escapes the folder or the file cannot be written.
    public func write(_ bytes: [UInt8], to name: String) throws(ReadError) {
        try Self.checkName(name, in: displayPath)
        let fileManager = FileManager.default
        let fileName = String(name.split(separator: "/").last ?? "")
        do {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
            guard let folder = Self.realPath(directory.path) else {
                throw ReadError(description: "\(displayPath) cannot be created")
            }
            // Create the folders one by one, checking each resolves inside (a symlinked folder could lead out).
            var current = URL(fileURLWithPath: folder)
            for component in name.split(separator: "/").dropLast() {
                current.appendPathComponent(String(component))
                if !fileManager.fileExists(atPath: current.path) {
                    try fileManager.createDirectory(at: current, withIntermediateDirectories: false)
                }
                guard let resolved = Self.realPath(current.path), resolved.hasPrefix(folder + "/") else {
                    throw ReadError(description: "'\(name)' resolves outside \(displayPath)")
                }
            }
            try Data(bytes).write(to: current.appendingPathComponent(fileName), options: .atomic)
        } catch let error as ReadError {
            throw error
        } catch {
            throw ReadError(
                description: "'\(name)' in \(displayPath) cannot be written: \(FileErrorReason.describe(error))")
        }
    }

    /// Deletes the file `name` (a symlink is removed, not what it points to).
    /// - Returns: `false` if there is no such file.
    /// - Throws: ``ReadError`` if the name escapes the folder, is a folder, or cannot be removed.
    public func delete(_ name: String) throws(ReadError) -> Bool {
        try Self.checkName(name, in: displayPath)
        guard let folder = Self.realPath(directory.path) else { return false }
        let path = folder + "/" + name
        // The folder holding the file must be inside, whatever symlinks lead there.
        let split = path.lastIndex(of: "/") ?? path.startIndex
        let parent = String(path[..<split])
        guard let resolvedParent = Self.realPath(parent) else { return false }
        guard resolvedParent == folder || resolvedParent.hasPrefix(folder + "/") else {
            throw ReadError(description: "'\(name)' resolves outside \(displayPath)")
        }
        let entry = resolvedParent + "/" + path[split...].dropFirst()
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: entry) else { return false }
        if attributes[.type] as? FileAttributeType == .typeDirectory {
            throw ReadError(description: "'\(name)' is a directory in \(displayPath)")
        }
        do {
            try FileManager.default.removeItem(atPath: entry)
        } catch {
            throw ReadError(
                description: "'\(name)' in \(displayPath) cannot be deleted: \(FileErrorReason.describe(error))")
        }
        return true
    }

    /// Rejects empty, absolute and `..` names, and empty path components (`a//b`).
    package static func checkName(_ name: String, in displayPath: String) throws(ReadError) {
        guard !name.isEmpty else { throw ReadError(description: "the file name is empty") }
        guard !name.hasPrefix("/") else {
            throw ReadError(description: "'\(name)' must be a path relative to \(displayPath)")
        }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.contains(".."), !components.contains("."), !components.contains(""),
            !name.utf8.contains(0)
        else {
            throw ReadError(description: "'\(name)' escapes \(displayPath)")
        }
    }
}
