import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The bounded, thread-safe log of received requests, oldest first.
///
/// Bounded three ways, so a long test run or a hostile client cannot grow memory without limit: at
/// most ``capacity`` entries, at most ``limits``' `maxBytes` in all (the oldest entries go first), and
/// each stored body cut at `maxBodyBytes` (the entry is marked ``LoggedRequest/bodyTruncated`` and
/// keeps the ``LoggedRequest/originalBodyLength``; the same for a response body made for the request,
/// ``LoggedRequest/responseBodyTruncated``). Matching always sees the whole body; only what is
/// kept afterwards is cut. Requests the parser rejected are kept apart, in a smaller log of their own.
public final class RequestJournal: Sendable {
    /// What the journal keeps.
    public struct Limits: Sendable, Equatable {
        /// The most entries kept. Default 10,000 (WireMock: `--max-request-journal-entries`).
        public var maxEntries: Int = 10_000
        /// The most bytes kept, bodies, targets and headers counted. Default 64 MiB.
        public var maxBytes: Int = 64 * 1024 * 1024
        /// The longest body stored per entry, the request's and a response's made for the request
        /// (templated, closure, proxied); longer ones are cut and marked. Default 1 MiB.
        public var maxBodyBytes: Int = 1024 * 1024
        /// `false` keeps nothing (WireMock's `--no-request-journal`). Default `true`.
        public var isEnabled: Bool = true

        public init() {}
    }

    private struct State: Sendable {
        var entries: RingBuffer<LoggedRequest>
        var rejections: RingBuffer<RejectedRequest>
        var bytes = 0
        var nextID = 1
    }

    /// The most entries kept.
    public var capacity: Int { limits.maxEntries }
    /// The journal's bounds.
    public let limits: Limits
    private let state: LockedValue<State>
    /// Who waits for requests to arrive (``StubServer/awaitRequests(matching:count:timeout:)``).
    let waiters = JournalWaiters()
    /// The dashboard's live feeds of recorded requests.
    let feed = RequestFeed()

    /// - Parameter capacity: the most entries kept; the oldest are dropped beyond it. Default 10,000.
    ///   Rejected requests are kept up to a tenth of that (at least 10).
    public convenience init(capacity: Int = 10_000) {
        var limits = Limits()
        limits.maxEntries = capacity
        self.init(limits: limits)
    }

    /// - Parameter limits: what is kept. Rejected requests are kept up to a tenth of `maxEntries` (at least 10).
    public init(limits: Limits) {
        var limits = limits
        limits.maxEntries = max(1, limits.maxEntries)
        limits.maxBytes = max(0, limits.maxBytes)
        limits.maxBodyBytes = max(0, limits.maxBodyBytes)
        self.limits = limits
        state = LockedValue(
            State(
                entries: RingBuffer(capacity: limits.maxEntries),
                rejections: RingBuffer(capacity: max(10, limits.maxEntries / 10))))
    }

    /// Whether entries are kept at all (`false` with `--no-request-journal`).
    public var isEnabled: Bool { limits.isEnabled }

    /// Appends an entry (its body cut at `maxBodyBytes`), drops the oldest beyond the bounds, and returns it.
    /// - Parameter ownsResponseBody: the response body was made for this request (a template, a
    ///   closure, an upstream's answer), not shared with a stub: it is cut at `maxBodyBytes` and counts
    ///   against the byte budget. An unmatched request's response (its near-miss report) always does.
    @discardableResult
    func record(
        _ request: StubHTTPRequest, matchedStub: LoggedRequest.MatchedStub?, status: Int,
        response: HTTPResponse? = nil, timing: ServeTiming = ServeTiming(),
        ownsResponseBody: Bool = false, proxiedTo: String? = nil, fault: ResponseFault? = nil
    ) -> LoggedRequest {
        let now = Date()
        var stored = request
        if request.body.count > limits.maxBodyBytes { stored.body = Array(request.body.prefix(limits.maxBodyBytes)) }
        var storedResponse = response
        var cost = Self.cost(of: stored)
        // A stub's static response body is shared with the stub and costs the journal nothing (and
        // cutting it would make a copy); a body of the entry's own is cut and counted.
        if matchedStub == nil || ownsResponseBody, let body = response?.body {
            if body.count > limits.maxBodyBytes { storedResponse?.body = Array(body.prefix(limits.maxBodyBytes)) }
            cost += storedResponse?.body.count ?? 0
        }
        let entry = state.withLock { state in
            let entry = LoggedRequest(
                id: state.nextID, receivedAt: now, request: stored,
                matchedStub: matchedStub, responseStatus: status,
                response: storedResponse, timing: timing,
                originalBodyLength: request.body.count,
                originalResponseBodyLength: response?.body.count ?? 0, journalCost: cost,
                proxiedTo: proxiedTo, fault: fault)
            state.nextID += 1
            guard limits.isEnabled else { return entry }
            while state.bytes + cost > limits.maxBytes, let oldest = state.entries.removeFirst() {
                state.bytes -= oldest.journalCost
            }
            guard cost <= limits.maxBytes else { return entry }
            if let dropped = state.entries.append(entry) { state.bytes -= dropped.journalCost }
            state.bytes += cost
            return entry
        }
        waiters.recorded(entry)
        feed.recorded(entry)
        return entry
    }

    /// Opens a live feed on `stream` (see ``RequestFeed``): it starts with the most recent entries, then gets
    /// every request recorded after them, each once, however many are recorded meanwhile. Returns its token
    /// and how many entries it starts with, or `nil` when too many feeds are open. Nothing is sent until
    /// ``RequestFeed/start(_:)``, so the caller can write what comes first.
    func openFeed(
        _ stream: HTTPResponseStream, submit: @escaping @Sendable (@escaping @Sendable () -> Void) -> Bool
    ) -> (token: Int, recent: Int)? {
        // Under the journal's lock: a request is either among `recent` or recorded after the feed was added.
        state.withLock { state in
            let recent = state.entries.suffix(RequestFeed.initialCount)
            return feed.open(stream, recent: recent, startsAfter: state.nextID - 1, submit: submit).map {
                (token: $0, recent: recent.count)
            }
        }
    }

    /// The `count` most recent entries, oldest first.
    func mostRecent(_ count: Int) -> [LoggedRequest] {
        state.withLock { $0.entries.suffix(count) }
    }

    /// Appends a rejected request and returns it.
    @discardableResult
    func recordRejection(remoteAddress: String, status: Int, reason: String) -> RejectedRequest {
        let rejection = RejectedRequest(
            receivedAt: Date(), remoteAddress: remoteAddress, status: status, reason: reason)
        if limits.isEnabled { state.withLock { _ = $0.rejections.append(rejection) } }
        return rejection
    }

    /// All kept entries, oldest first.
    public var entries: [LoggedRequest] { state.withLock { $0.entries.elements } }

    /// Requests the parser rejected (malformed, too large, unsupported), oldest first.
    public var rejections: [RejectedRequest] { state.withLock { $0.rejections.elements } }

    /// How many entries were dropped to stay within the bounds (entries or bytes).
    public var droppedCount: Int { state.withLock { $0.entries.droppedCount } }

    /// Removes the entries `predicate` selects; returns how many were removed.
    @discardableResult
    public func removeEntries(where predicate: (LoggedRequest) -> Bool) -> Int {
        state.withLock { state in
            let removed = state.entries.removeAll(where: predicate)
            var bytes = 0
            state.entries.forEach { bytes += $0.journalCost }
            state.bytes = bytes
            return removed
        }
    }

    /// How many times the entries' storage was reallocated: O(log `maxEntries`) over the journal's life
    /// (tests hold it to that, so an append can never again copy the journal).
    var storageGrowths: Int { state.withLock { $0.entries.storageGrowths } }

    /// How many bytes the kept entries take, as counted against `maxBytes`.
    public var byteCount: Int { state.withLock { $0.bytes } }

    /// Forgets every entry and rejection.
    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.rejections.removeAll()
            state.bytes = 0
        }
    }

    /// What an entry counts against `maxBytes`: its body, target and header fields, plus a fixed
    /// allowance for the entry itself.
    static func cost(of request: StubHTTPRequest) -> Int {
        var bytes = 256 + request.body.count + request.target.utf8.count
        for field in request.headers { bytes += field.name.utf8.count + field.value.utf8.count + 32 }
        for field in request.trailers { bytes += field.name.utf8.count + field.value.utf8.count + 32 }
        return bytes
    }
}
