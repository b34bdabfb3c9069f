import StubHTTP

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Saves data collections in a directory (`--data-dir`): `NAME.json`, the items as a JSON array.
///
/// A change marks its collection; a thread of its own writes the marked ones, each to a temporary file renamed
/// over the old one, so a crash at any moment leaves the previous file or the new one, never half of one. A
/// burst of changes is written once it pauses (at most ``coalescing`` later), so the requests that make them pay
/// nothing for the writes. ``flush()`` (at stop) writes what is pending. Every field is reached under `condition`'s
/// lock.
final class DataPersistence: @unchecked Sendable {
    let directory: URL
    private let log: LogSink
    private let condition = ThreadCondition()
    private struct Pending {
        var marked: [String: DataCollectionStore] = [:]
        var writerRunning = false
        var writing = false
        /// The collections whose last write failed (logged once until one succeeds).
        var failing: Set<String> = []
    }
    private var pending = Pending()

    /// How long the writer waits for more changes before writing.
    static let coalescing: Duration = .milliseconds(50)
    /// How long an idle writer thread waits for more before ending.
    private static let idleLinger: Duration = .seconds(1)

    init(directory: URL, log: LogSink) {
        self.directory = directory
        self.log = log
    }

    /// Where `collection` is saved.
    func file(for collection: DataCollection) -> URL {
        directory.appendingPathComponent(collection.name + ".json", isDirectory: false)
    }

    /// The items saved for `collection`, or `nil` when it has no file.
    /// - Throws: ``DataFailure`` naming the file when it cannot be read or is not a JSON array.
    func saved(_ collection: DataCollection) throws(DataFailure) -> [JSONValue]? {
        let url = file(for: collection)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let failure = { (reason: String) in
            DataFailure(status: 500, title: "A saved collection does not load", detail: "\(url.path): \(reason)")
        }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            throw failure("\(error)")
        }
        do {
            guard case .array(let items) = try JSONParser.parse(bytes) else {
                throw failure("expected a JSON array of items")
            }
            return items
        } catch let error as DataFailure {
            throw error
        } catch {
            throw failure("\(error)")
        }
    }

    /// Marks `store` to be written.
    func changed(_ store: DataCollectionStore) {
        condition.lock()
        defer { condition.unlock() }
        pending.marked[store.collection.name] = store
        if pending.writerRunning {
            condition.signal()
            return
        }
        pending.writerRunning = true
        do {
            try ThreadHandle.spawn { [self] in writeLoop() }.detach()
        } catch {
            // No thread now: the mark stays, and the next change (or the flush) tries again.
            pending.writerRunning = false
        }
    }

    /// Writes what is marked, on this thread, and waits for a write in progress.
    func flush() {
        condition.lock()
        while pending.writing { _ = condition.wait(timeout: .seconds(10)) }
        let marked = pending.marked
        pending.marked = [:]
        pending.writing = !marked.isEmpty
        condition.unlock()
        guard !marked.isEmpty else { return }
        save(marked)
        condition.lock()
        pending.writing = false
        condition.broadcast()
        condition.unlock()
    }

    private func writeLoop() {
        condition.lock()
        while true {
            if pending.marked.isEmpty || pending.writing {
                if !condition.wait(timeout: Self.idleLinger), pending.marked.isEmpty {
                    pending.writerRunning = false
                    condition.unlock()
                    return
                }
                continue
            }
            // Let a burst of changes settle: one write for all of them (a change's signal does not end the wait).
            let settled = ThreadCondition.deadline(after: Self.coalescing)
            while condition.wait(until: settled) {}
            guard !pending.writing else { continue }
            let marked = pending.marked
            pending.marked = [:]
            pending.writing = true
            condition.unlock()
            save(marked)
            condition.lock()
            pending.writing = false
            condition.broadcast()
        }
    }

    /// Writes `bytes` to `.NAME.json.tmp` beside `url`, flushes it to disk, then renames it over `url`: a crash
    /// leaves the old file or the new one, and at most one temporary file per collection (the next write reuses
    /// it). On Apple platforms, Foundation's atomic write does the same (its temporary file has a name of its own).
    private static func replace(_ url: URL, with bytes: [UInt8]) throws {
        #if canImport(Glibc)
            let temporary = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".tmp")
            func failure(_ call: String) -> DataFailure {
                DataFailure(
                    status: 500, title: "Cannot save",
                    detail: "\(call) \(temporary.path): \(String(cString: strerror(errno)))")
            }
            let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw failure("open") }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, bytes.count - written) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    let error = failure("write")
                    close(fd)
                    throw error
                }
                written += count
            }
            guard fsync(fd) == 0 else {
                let error = failure("fsync")
                close(fd)
                throw error
            }
            guard close(fd) == 0 else { throw failure("close") }
            guard rename(temporary.path, url.path) == 0 else { throw failure("rename to \(url.path) from") }
        #else
            try Data(bytes).write(to: url, options: .atomic)
        #endif
    }

    private func save(_ marked: [String: DataCollectionStore]) {
        for (name, store) in marked.sorted(by: { $0.key < $1.key }) {
            let url = file(for: store.collection)
            var failure: String?
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Self.replace(url, with: store.jsonArray)
            } catch {
                failure = "\(error)"
            }
            condition.lock()
            let logged = pending.failing.contains(name)
            if failure == nil { pending.failing.remove(name) } else { pending.failing.insert(name) }
            condition.unlock()
            if let failure, !logged {
                log.write("stubserver: cannot save data collection \(name) to \(url.path): \(failure)")
            }
        }
    }
}
