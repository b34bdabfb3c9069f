#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if os(Linux)
import Glibc
#endif

/// What is at a path, with the system's reason when it cannot be looked at: unlike
/// `FileManager.fileExists`, "permission denied" or a symlink loop is not mistaken for "missing".
enum PathStatus: Equatable {
    case directory
    case file
    case missing
    /// The path cannot be looked at, e.g. `Permission denied`, `Too many levels of symbolic links`.
    case unreachable(reason: String)

    init(_ path: String) {
        #if os(Linux)
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            self = code == ENOENT ? .missing : .unreachable(reason: String(cString: strerror(code)))
            return
        }
        self = (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
        #else
        do {
            _ = try FileManager.default.attributesOfItem(atPath: path)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            self = .missing
            return
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            self = .unreachable(reason: underlying?.localizedDescription ?? error.localizedDescription)
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            self = .unreachable(reason: "a symbolic link that leads nowhere or loops")
            return
        }
        self = isDirectory.boolValue ? .directory : .file
        #endif
    }

    /// `nil` if the directory at `path` can be listed and entered, else why not (`Permission denied`).
    static func unreadableDirectoryReason(_ path: String) -> String? {
        let manager = FileManager.default
        return manager.isReadableFile(atPath: path) && manager.isExecutableFile(atPath: path) ? nil : "Permission denied"
    }
}
