import Foundation

/// The bounded, thread-safe log of received requests, oldest first.
///
/// When full, the oldest entries are dropped, so a long test run cannot grow memory without limit.
/// Requests the parser rejected are kept apart, in a smaller log of their own.
public final class RequestJournal: Sendable {
    private struct State: Sendable {
        var entries: RingBuffer<LoggedRequest>
        var rejections: RingBuffer<RejectedRequest>
        var nextID = 1
    }

    /// The most entries kept.
    public let capacity: Int
    private let state: LockedValue<State>

    /// - Parameter capacity: the most entries kept; the oldest are dropped beyond it. Default 10,000.
    ///   Rejected requests are kept up to a tenth of that (at least 10).
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
        state = LockedValue(State(entries: RingBuffer(capacity: capacity),
                             rejections: RingBuffer(capacity: max(10, capacity / 10))))
    }

    /// Appends an entry and returns it.
    @discardableResult
    func record(_ request: HTTPRequest, matchedStub: LoggedRequest.MatchedStub?, status: Int) -> LoggedRequest {
        let now = Date()
        return state.withLock { state in
            let entry = LoggedRequest(id: state.nextID, receivedAt: now, request: request,
                                      matchedStub: matchedStub, responseStatus: status)
            state.nextID += 1
            state.entries.append(entry)
            return entry
        }
    }

    /// Appends a rejected request and returns it.
    @discardableResult
    func recordRejection(remoteAddress: String, status: Int, reason: String) -> RejectedRequest {
        let rejection = RejectedRequest(receivedAt: Date(), remoteAddress: remoteAddress, status: status, reason: reason)
        state.withLock { $0.rejections.append(rejection) }
        return rejection
    }

    /// All kept entries, oldest first.
    public var entries: [LoggedRequest] { state.withLock { $0.entries.elements } }

    /// Requests the parser rejected (malformed, too large, unsupported), oldest first.
    public var rejections: [RejectedRequest] { state.withLock { $0.rejections.elements } }

    /// How many entries were dropped because the journal was full.
    public var droppedCount: Int { state.withLock { $0.entries.droppedCount } }

    /// Forgets every entry and rejection.
    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.rejections.removeAll()
        }
    }
}
