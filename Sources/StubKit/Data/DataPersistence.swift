import StubHTTP

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
        write(marked)
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
            // Let a burst of changes settle: one write for all of them.
            _ = condition.wait(timeout: Self.coalescing)
            guard !pending.writing else { continue }
            let marked = pending.marked
            pending.marked = [:]
            pending.writing = true
            condition.unlock()
            write(marked)
            condition.lock()
            pending.writing = false
            condition.broadcast()
        }
    }

    private func write(_ marked: [String: DataCollectionStore]) {
        for (name, store) in marked.sorted(by: { $0.key < $1.key }) {
            let url = file(for: store.collection)
            var failure: String?
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                // Written to a temporary file beside it, then renamed over it.
                try Data(store.jsonArray).write(to: url, options: .atomic)
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
