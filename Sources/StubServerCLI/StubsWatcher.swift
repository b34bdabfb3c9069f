import Foundation
import StubKit

/// `--watch`: polls the stubs directory twice a second and reloads it when a file changes.
///
/// Polling (paths, sizes, modification times) works the same on Linux and macOS and needs no
/// file-system event API. A bad edit keeps the last good route table and logs the error.
struct StubsWatcher: Sendable {
    private let task: Task<Void, Never>

    /// What the directory looked like: path → "size mtime" of every regular file.
    typealias Fingerprint = [String: String]

    /// Starts watching `directory` for `server`.
    /// - Parameter baseline: the directory's ``fingerprint(of:)`` taken before `server` loaded it, so an
    ///   edit made while loading or right after startup is not missed.
    init(server: StubServer, directory: String, baseline: Fingerprint, interval: Duration = .milliseconds(500)) {
        task = Task.detached {
            var previous = baseline
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let current = Self.fingerprint(of: directory)
                guard current != previous else { continue }
                previous = current
                Self.reload(server, directory)
            }
        }
    }

    /// Stops watching.
    func stop() { task.cancel() }

    private static func reload(_ server: StubServer, _ directory: String) {
        do {
            let warnings = try server.reloadStubs()
            warnings.forEach { StandardStreams.error("stubserver: \($0)\n") }
            StandardStreams.error("stubserver: reloaded \(stubCount(server.mappings.count)) from \(directory)\n")
        } catch {
            StandardStreams.error("stubserver: error: \(error); keeping the last good stubs\n")
        }
    }

    /// Path → "size mtime" of every regular file below `directory`.
    static func fingerprint(of directory: String) -> Fingerprint {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: URL(fileURLWithPath: directory),
                                                              includingPropertiesForKeys: keys) else {
            return [:]
        }
        var result: [String: String] = [:]
        for case let url as URL in enumerator {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            let stamp = values.contentModificationDate?.timeIntervalSince1970 ?? 0
            result[url.path] = "\(values.fileSize ?? -1) \(stamp)"
        }
        return result
    }
}
