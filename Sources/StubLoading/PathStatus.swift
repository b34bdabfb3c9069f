#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What is at a path, following symlinks, with the system's reason when it cannot be looked at:
/// unlike `FileManager.fileExists`, "permission denied" or a symlink loop is not mistaken for
/// "missing", and a FIFO or a device is not mistaken for a file (opening a FIFO would block).
enum PathStatus: Equatable {
    case directory
    /// A regular file.
    case file
    case missing
    /// Neither a regular file nor a directory: ``Special`` says what, for messages.
    case special(Special)
    /// The path cannot be looked at, e.g. `Permission denied`, `Too many levels of symbolic links`.
    case unreachable(reason: String)

    /// The kinds of file the loader never opens.
    enum Special: String, Equatable {
        case fifo = "a FIFO (named pipe)"
        case characterDevice = "a character device"
        case blockDevice = "a block device"
        case socket = "a socket"
        case other = "not a regular file"
    }

    /// What is at `path`, through symlinks: `stat(2)` on Linux, Foundation's attributes of the
    /// resolved path on Apple platforms.
    init(_ path: String) {
        #if canImport(Glibc)
            var info = stat()
            guard stat(path, &info) == 0 else {
                let code = errno
                self = code == ENOENT ? .missing : .unreachable(reason: String(cString: strerror(code)))
                return
            }
            self = Self(mode: info.st_mode)
        #else
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let attributes: [FileAttributeKey: Any]
            do {
                attributes = try FileManager.default.attributesOfItem(atPath: resolved)
            } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
                self = .missing
                return
            } catch {
                let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
                self = .unreachable(reason: underlying?.localizedDescription ?? error.localizedDescription)
                return
            }
            switch attributes[.type] as? FileAttributeType {
            case .typeDirectory?: self = .directory
            case .typeRegular?: self = .file
            case .typeCharacterSpecial?: self = .special(.characterDevice)
            case .typeBlockSpecial?: self = .special(.blockDevice)
            case .typeSocket?: self = .special(.socket)
            case .typeSymbolicLink?: self = .unreachable(reason: "a symbolic link that leads nowhere or loops")
            default: self = .special(.other)  // a FIFO is `typeUnknown` to Foundation
            }
        #endif
    }

    #if canImport(Glibc)
        /// The status for the type bits of a `st_mode`.
        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFDIR: self = .directory
            case S_IFREG: self = .file
            case S_IFIFO: self = .special(.fifo)
            case S_IFCHR: self = .special(.characterDevice)
            case S_IFBLK: self = .special(.blockDevice)
            case S_IFSOCK: self = .special(.socket)
            default: self = .special(.other)
            }
        }
    #endif

    /// Why the loader skips the thing at `display`, for a warning: `Stubs/mappings/pipe.json is a FIFO
    /// (named pipe), not a regular file: skipped`.
    static func skippedWarning(_ display: String, _ kind: Special) -> String {
        kind == .other
            ? "warning: \(display) is not a regular file (nor a folder): skipped"
            : "warning: \(display) is \(kind.rawValue), not a regular file: skipped (stub files must be regular files or symlinks to them)"
    }

    /// `nil` if the directory at `path` can be listed and entered, else why not (`Permission denied`).
    static func unreadableDirectoryReason(_ path: String) -> String? {
        let manager = FileManager.default
        return manager.isReadableFile(atPath: path) && manager.isExecutableFile(atPath: path)
            ? nil : "Permission denied"
    }
}
