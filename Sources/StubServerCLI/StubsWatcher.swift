#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubKit

/// `--watch`: polls the stubs directory twice a second and reloads it when a file changes.
///
/// Polling (paths, sizes, modification times) works the same on Linux and macOS and needs no
/// file-system event API. A bad edit keeps the last good route table and logs the error.
struct StubsWatcher: Sendable {
    private let task: Task<Void, Never>

    /// What the directory looked like: path → "size mtime" of every regular file.
    typealias Fingerprint = [String: String]

    /// Starts watching `directory` for `server`, logging reloads and errors to `log`.
    /// - Parameter baseline: the directory's ``fingerprint(of:)`` taken before `server` loaded it, so an
    ///   edit made while loading or right after startup is not missed.
    init(server: StubServer, directory: String, baseline: Fingerprint, log: LogSink,
         interval: Duration = .milliseconds(500)) {
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

    /// Path → "size mtime" of every regular file below `directory`.
    static func fingerprint(of directory: String) -> Fingerprint {
        guard let subpaths = try? FileManager.default.subpathsOfDirectory(atPath: directory) else { return [:] }
        var result: [String: String] = [:]
        for relative in subpaths {
            let path = directory + "/" + relative
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let stamp = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            let size = attributes[.size].map { "\($0)" } ?? "-1"
            result[path] = "\(size) \(stamp)"
        }
        return result
    }
}
