import StubHTTP

/// The answers (near-miss reports) to the last few unmatched requests, so that a request repeated against the same
/// stubs (a test polling a path no stub serves, a client retrying, a loop) reuses its report instead of
/// comparing the stubs again.
///
/// A report depends only on the request and the route table, so a hit is exact: the whole request is the
/// key (method, target, version, headers, body, trailers), and the cache empties when the stubs change.
/// Bounded: at most ``capacity`` reports, each of a request of at most ``requestLimit`` bytes (larger ones
/// are not kept); the oldest goes first, in O(1).
///
/// ```swift
/// let report = cache.report(for: request, in: snapshot) ?? UnmatchedAnswer(report: snapshot.table.nearMissReport(for: context))
/// cache.keep(report, for: request, in: snapshot)
/// ```
final class NearMissReportCache: Sendable {
    private struct State {
        /// The stubs the reports were made against; not kept alive by the cache.
        weak var snapshot: StubSnapshot?
        var reports: [StubHTTPRequest: UnmatchedAnswer] = [:]
        /// Insertion order, a ring: the slot `next` holds the oldest key once full.
        var order: [StubHTTPRequest?]
        var next = 0
    }

    /// The most reports kept.
    let capacity: Int
    /// The largest request (target, header fields and body, in bytes) whose report is kept.
    let requestLimit: Int
    private let state: LockedValue<State>

    init(capacity: Int = 64, requestLimit: Int = 8 << 10) {
        self.capacity = max(1, capacity)
        self.requestLimit = requestLimit
        state = LockedValue(State(order: Array(repeating: nil, count: max(1, capacity))))
    }

    /// The report kept for `request` against `snapshot`, if any.
    func report(for request: StubHTTPRequest, in snapshot: StubSnapshot) -> UnmatchedAnswer? {
        guard Self.size(of: request, limit: requestLimit) <= requestLimit else { return nil }
        return state.withLock { $0.snapshot === snapshot ? $0.reports[request] : nil }
    }

    /// Keeps `report`, made for `request` against `snapshot`, if the request is small enough; the oldest
    /// report goes if the cache is full, all of them if the stubs changed.
    func keep(_ report: UnmatchedAnswer, for request: StubHTTPRequest, in snapshot: StubSnapshot) {
        guard Self.size(of: request, limit: requestLimit) <= requestLimit else { return }
        state.withLock { state in
            if state.snapshot !== snapshot {
                state = State(snapshot: snapshot, order: Array(repeating: nil, count: capacity))
            }
            guard state.reports.updateValue(report, forKey: request) == nil else { return }
            if let oldest = state.order[state.next] { state.reports[oldest] = nil }
            state.order[state.next] = request
            state.next = (state.next + 1) % capacity
        }
    }

    /// How many reports are kept (for tests).
    var count: Int { state.withLock { $0.reports.count } }

    /// The bytes of `request` that make its key, counted until they pass `limit`.
    private static func size(of request: StubHTTPRequest, limit: Int) -> Int {
        var total = request.target.utf8.count + request.body.count
        for field in request.headers where total <= limit {
            total += field.name.utf8.count + field.value.utf8.count
        }
        for field in request.trailers where total <= limit {
            total += field.name.utf8.count + field.value.utf8.count
        }
        return total
    }
}
