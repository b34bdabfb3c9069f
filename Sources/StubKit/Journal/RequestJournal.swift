import Foundation

/// The bounded, thread-safe log of received requests, oldest first.
///
/// When full, the oldest entries are dropped, so a long test run cannot grow memory without limit.
public final class RequestJournal: Sendable {
    private struct State {
        var entries: [LoggedRequest] = []
        /// Index of the oldest entry once the ring is full.
        var head = 0
        var nextID = 1
        var dropped = 0
    }

    /// The most entries kept.
    public let capacity: Int
    private let state = Locked(State())

    /// - Parameter capacity: the most entries kept; the oldest are dropped beyond it. Default 10,000.
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// Appends an entry and returns it.
    @discardableResult
    func record(_ request: HTTPRequest, matchedStub: LoggedRequest.MatchedStub?, status: Int) -> LoggedRequest {
        let now = Date()
        return state.withLock { state in
            let entry = LoggedRequest(id: state.nextID, receivedAt: now, request: request,
                                      matchedStub: matchedStub, responseStatus: status)
            state.nextID += 1
            if state.entries.count < capacity {
                state.entries.append(entry)
            } else {
                state.entries[state.head] = entry
                state.head = (state.head + 1) % capacity
                state.dropped += 1
            }
            return entry
        }
    }

    /// All kept entries, oldest first.
    public var entries: [LoggedRequest] {
        state.withLock { state in
            Array(state.entries[state.head...] + state.entries[..<state.head])
        }
    }

    /// How many entries were dropped because the journal was full.
    public var droppedCount: Int { state.withLock { $0.dropped } }

    /// Forgets every entry.
    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            state.head = 0
            state.dropped = 0
        }
    }
}
