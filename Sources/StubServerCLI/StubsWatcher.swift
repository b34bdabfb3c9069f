import StubKit

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

/// `--watch`: polls the stubs directory twice a second and reloads it when a file changes.
///
/// Polling (paths, sizes, modification times) works the same on Linux and macOS and needs no
/// file-system event API. It looks at what the loader reads: through symlinked files and folders
/// (the target's size and time), never opening anything, so a FIFO or a device is only noted (the
/// loader skips it with a warning). A bad edit keeps the last good route table and logs the error.
struct StubsWatcher: Sendable {
    private let task: Task<Void, Never>

    /// What the directory looked like: path → "size mtime inode" of every file (through symlinks), or
    /// what else is there (a FIFO, an unreadable entry).
    typealias Fingerprint = [String: String]

    /// Starts watching `directory` for `server`, logging reloads and errors to `log`.
    /// - Parameter baseline: the directory's ``fingerprint(of:)`` taken before `server` loaded it, so an
    ///   edit made while loading or right after startup is not missed.
    init(
        server: StubServer, directory: String, baseline: Fingerprint, log: LogSink,
        interval: Duration = .milliseconds(500)
    ) {
        task = Task.detached {
            var previous = baseline
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let current = Self.fingerprint(of: directory)
                guard current != previous else { continue }
                previous = current
                Self.reload(server, directory, log)
            }
        }
    }

    /// Stops watching.
    func stop() { task.cancel() }

    private static func reload(_ server: StubServer, _ directory: String, _ log: LogSink) {
        do {
            let warnings = try server.reloadStubs()
            warnings.forEach { log.write("stubserver: \($0)") }
            log.write("stubserver: reloaded \(stubCount(server.mappings.count)) from \(directory)")
        } catch {
            log.write("stubserver: error: \(error); keeping the last good stubs")
        }
    }

    /// The most entries looked at per poll; a larger tree is watched in part.
    static let maxEntries = 200_000

    /// Path → "size mtime device inode" of every file below `directory`, following symlinked files and
    /// folders as the loader does (each real folder once, so a symlink loop ends), and a note for every
    /// entry that is not a regular file or folder. Nothing is opened but folders.
    static func fingerprint(of directory: String) -> Fingerprint {
        var result: Fingerprint = [:]
        var visited: Set<String> = []
        var pending = [directory]
        var seen = 0
        while let folder = pending.popLast() {
            guard let real = realPath(folder), visited.insert(real).inserted,
                let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
            else { continue }
            for name in names {
                seen += 1
                guard seen <= maxEntries else { return result }
                let path = folder + "/" + name
                switch entry(path) {
                case .folder: pending.append(path)
                case .file(let stamp), .other(let stamp): result[path] = stamp
                }
            }
        }
        return result
    }

    /// What the fingerprint notes about one entry.
    private enum Entry {
        case folder
        /// "size mtime device inode" of a regular file (through symlinks).
        case file(String)
        /// A FIFO, a device, a dangling symlink…: what it is, so that it appearing or going counts.
        case other(String)
    }

    /// The entry at `path`, through symlinks, without opening it.
    private static func entry(_ path: String) -> Entry {
        #if canImport(Glibc)
            var info = stat()
            guard stat(path, &info) == 0 else { return .other("unreachable \(errno)") }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return .folder
            case S_IFREG:
                let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
                return .file("\(info.st_size) \(nanoseconds) \(info.st_dev) \(info.st_ino)")
            default: return .other("special \(info.st_mode & S_IFMT)")
            }
        #else
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved) else {
                return .other("unreachable")
            }
            let type = attributes[.type] as? FileAttributeType
            if type == .typeDirectory { return .folder }
            guard type == .typeRegular else { return .other("special \(type?.rawValue ?? "?")") }
            let stamp = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            let size = attributes[.size].map { "\($0)" } ?? "-1"
            let number = attributes[.systemFileNumber].map { "\($0)" } ?? "-"
            return .file("\(size) \(stamp) \(resolved) \(number)")
        #endif
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
