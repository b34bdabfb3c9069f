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
        /// The waiters and feeds that may be open: an entry is handed to them only when there may be any
        /// (counted up before one can miss an entry, down once it is gone).
        var listeners = 0
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
        let (entry, heard) = state.withLock { state in
            let heard = state.listeners > 0
            let entry = LoggedRequest(
                id: state.nextID, receivedAt: now, request: stored,
                matchedStub: matchedStub, responseStatus: status,
                response: storedResponse, timing: timing,
                originalBodyLength: request.body.count,
                originalResponseBodyLength: response?.body.count ?? 0, journalCost: cost,
                proxiedTo: proxiedTo, fault: fault)
            state.nextID += 1
            guard limits.isEnabled else { return (entry, heard) }
            while state.bytes + cost > limits.maxBytes, let oldest = state.entries.removeFirst() {
                state.bytes -= oldest.journalCost
            }
            guard cost <= limits.maxBytes else { return (entry, heard) }
            if let dropped = state.entries.append(entry) { state.bytes -= dropped.journalCost }
            state.bytes += cost
            return (entry, heard)
        }
        if heard {
            waiters.recorded(entry)
            feed.recorded(entry)
        }
        return entry
    }

    /// Counts a waiter or feed in (`+1`, before it can miss an entry) or out (`-1`, once it is gone).
    private func listen(_ change: Int) {
        state.withLock { $0.listeners += change }
    }

    /// Calls `onSatisfied` once `count` entries match `pattern`, counting those already kept (see
    /// ``JournalWaiters/register(_:count:entries:onSatisfied:)``).
    /// - Returns: a token for ``cancelWait(_:)``, or `nil` if the count is already reached (then
    ///   `onSatisfied` is not called).
    func awaitEntries(
        matching pattern: RequestPattern, count: Int, onSatisfied: @escaping @Sendable () -> Void
    ) -> Int? {
        listen(1)
        let token = waiters.register(
            pattern, count: count, entries: { entries },
            onSatisfied: { [self] in
                listen(-1)
                onSatisfied()
            })
        if token == nil { listen(-1) }
        return token
    }

    /// Stops the wait `token` (from ``awaitEntries(matching:count:onSatisfied:)``); its `onSatisfied` is not
    /// called after this returns.
    func cancelWait(_ token: Int) {
        if waiters.cancel(token) { listen(-1) }
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
            let token = feed.open(stream, recent: recent, startsAfter: state.nextID - 1, submit: submit)
            if token != nil { state.listeners += 1 }
            return token.map { (token: $0, recent: recent.count) }
        }
    }

    /// Closes the feed `token` (from ``openFeed(_:submit:)``): its stream ended.
    func closeFeed(_ token: Int) {
        if feed.close(token) { listen(-1) }
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

/// One request the server received, as the journal keeps it.
public struct LoggedRequest: Sendable, Identifiable {
    /// The stub that answered a request.
    public struct MatchedStub: Sendable, Hashable {
        public var id: String
        public var name: String?
        /// How the stub is named in logs: its name, else its source file, else its id.
        public var displayName: String

        package init(id: String, name: String?, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }

    /// Increasing sequence number, unique per server.
    public let id: Int
    /// When the request was received (complete).
    public let receivedAt: Date
    /// The request as received.
    public let request: StubHTTPRequest
    /// The stub that answered it, or `nil` if none matched.
    public let matchedStub: MatchedStub?
    /// The status sent back.
    public let responseStatus: Int
    /// The response sent (or scheduled, for a delayed stub): status, headers and body. A static stub's
    /// body is shared with the stub, so keeping it costs no copy; a body made for this request (a
    /// template, a closure, an upstream's answer, a 404 report) is the entry's own and is kept cut at
    /// ``RequestJournal/Limits/maxBodyBytes`` (see ``responseBodyTruncated``).
    public let response: StubHTTPResponse?
    /// How long serving took.
    public let timing: ServeTiming
    /// The body's length as received, in bytes: more than `request.body.count` when the journal cut it.
    public let originalBodyLength: Int
    /// The response body's length as sent, in bytes: more than `response.body.count` when the journal cut it.
    public let originalResponseBodyLength: Int
    /// What this entry counts against the journal's byte budget.
    let journalCost: Int
    /// The upstream URL the request was forwarded to, when a proxy stub, `--proxy-all` or a
    /// recording answered it; `nil` otherwise. What `POST /__admin/recordings/snapshot` records.
    public internal(set) var proxiedTo: String? = nil
    /// The fault sent instead of a response (a reset, an empty reply, garbage), when the stub that
    /// answered has one; ``responseStatus`` and ``response`` then hold the stub's definition, as WireMock
    /// logs them, though the client received no response.
    public internal(set) var fault: ResponseFault? = nil

    /// Whether the journal kept only the first ``RequestJournal/Limits/maxBodyBytes`` of the body
    /// (``originalBodyLength`` has the full length). Matching saw the whole body.
    public var bodyTruncated: Bool { request.body.count < originalBodyLength }

    /// Whether the journal kept only the first ``RequestJournal/Limits/maxBodyBytes`` of the response
    /// body (``originalResponseBodyLength`` has the full length). The client got the whole body.
    public var responseBodyTruncated: Bool { (response?.body.count ?? 0) < originalResponseBodyLength }

    /// Whether a stub answered the request.
    public var wasMatched: Bool { matchedStub != nil }

    package init(
        id: Int, receivedAt: Date, request: StubHTTPRequest, matchedStub: MatchedStub?, responseStatus: Int,
        response: StubHTTPResponse?, timing: ServeTiming, originalBodyLength: Int, originalResponseBodyLength: Int,
        journalCost: Int, proxiedTo: String? = nil, fault: ResponseFault? = nil
    ) {
        self.id = id
        self.receivedAt = receivedAt
        self.request = request
        self.matchedStub = matchedStub
        self.responseStatus = responseStatus
        self.response = response
        self.timing = timing
        self.originalBodyLength = originalBodyLength
        self.originalResponseBodyLength = originalResponseBodyLength
        self.journalCost = journalCost
        self.proxiedTo = proxiedTo
        self.fault = fault
    }
}

/// How long a request took to serve, as WireMock's serve event `timing` reports it.
public struct ServeTiming: Sendable, Hashable {
    /// Matching the request and choosing the response.
    public var processTime: Duration
    /// The stub's delay (`fixedDelayMilliseconds`, global delay) before the response was sent.
    public var addedDelay: Duration

    public init(processTime: Duration = .zero, addedDelay: Duration = .zero) {
        self.processTime = processTime
        self.addedDelay = addedDelay
    }

    /// A stub's delay plus the global one; `nil` when both are absent.
    static func combined(_ stub: Duration?, _ global: Duration?) -> Duration? {
        switch (stub, global) {
        case (nil, nil): nil
        case let (stub, global): (stub ?? .zero) + (global ?? .zero)
        }
    }

    /// Processing plus the added delay.
    public var totalTime: Duration { processTime + addedDelay }
}

extension LoggedRequest: CustomStringConvertible {
    /// `GET /users/octocat → 200 (GitHub user octocat)`; for a fault,
    /// `GET /broken → 200, fault CONNECTION_RESET_BY_PEER (Reset)`.
    public var description: String {
        let fault = fault.map { ", fault \($0.rawValue)" } ?? ""
        return
            "\(request.method) \(request.target) → \(responseStatus)\(fault) (\(matchedStub?.displayName ?? "no match"))"
    }
}

/// A first-in, first-out buffer of at most `capacity` elements: appending to a full buffer drops the
/// oldest, and the oldest can be removed early (to stay within a byte budget).
///
/// Appending and removing are amortized O(1) whatever the count: the storage is a circular buffer that
/// grows by doubling (up to `capacity`) and is never rebuilt on an append that finds room. A journal of
/// 10,000 entries makes request 10,000 cost what request 1 did. ``storageGrowths`` counts the times the
/// storage was reallocated, so a test can prove it (about log₂(capacity), not one per append).
struct RingBuffer<Element> {
    let capacity: Int
    /// Slots: `count` elements from `head`, wrapping; the others are `nil`.
    private var storage: ContiguousArray<Element?> = []
    /// Index of the oldest element.
    private var head = 0
    /// How many elements are kept.
    private(set) var count = 0
    /// How many elements were dropped to make room (by ``append(_:)`` or ``removeFirst()``).
    private(set) var droppedCount = 0
    /// How many times the storage was reallocated to grow: O(log `capacity`) over the buffer's life.
    private(set) var storageGrowths = 0

    /// The smallest storage allocated, so that small journals do not grow one slot at a time.
    private static var initialSlots: Int { 16 }

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Appends `element`, dropping the oldest if the buffer is full; returns the dropped one.
    @discardableResult
    mutating func append(_ element: Element) -> Element? {
        let dropped = count == capacity ? removeFirst() : nil
        if count == storage.count { grow() }
        storage[slot(count)] = element
        count += 1
        return dropped
    }

    /// Removes and returns the oldest element, counting it as dropped.
    @discardableResult
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        // Moved out, not copied then cleared: a copy retains every reference the element holds.
        var element: Element?
        swap(&element, &storage[head])
        head = head + 1 == storage.count ? 0 : head + 1
        count -= 1
        droppedCount += 1
        return element
    }

    /// The elements, oldest first (a copy: O(count); for listings, never per request).
    var elements: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        forEach { result.append($0) }
        return result
    }

    /// The newest `maxLength` elements (or all), oldest first.
    func suffix(_ maxLength: Int) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(min(maxLength, count))
        for offset in max(0, count - maxLength)..<count {
            if let element = storage[slot(offset)] { result.append(element) }
        }
        return result
    }

    /// Calls `body` on each element, oldest first, without copying the buffer.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for offset in 0..<count {
            if let element = storage[slot(offset)] { try body(element) }
        }
    }

    /// The newest element.
    var last: Element? { count == 0 ? nil : storage[slot(count - 1)] }

    /// Removes the elements that satisfy `predicate`; returns how many. The dropped count is kept.
    @discardableResult
    mutating func removeAll(where predicate: (Element) -> Bool) -> Int {
        var kept = ContiguousArray<Element?>()
        kept.reserveCapacity(storage.count)
        forEach { if !predicate($0) { kept.append($0) } }
        let removed = count - kept.count
        guard removed > 0 else { return 0 }
        count = kept.count
        kept.append(contentsOf: repeatElement(nil, count: storage.count - kept.count))
        storage = kept
        head = 0
        return removed
    }

    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
        droppedCount = 0
    }

    /// The storage index of the element `offset` places after the oldest.
    private func slot(_ offset: Int) -> Int {
        let index = head + offset
        return index < storage.count ? index : index - storage.count
    }

    /// Doubles the storage (at most to `capacity`), oldest first from index 0.
    private mutating func grow() {
        let size = min(capacity, max(Self.initialSlots, storage.count * 2))
        var grown = ContiguousArray<Element?>()
        grown.reserveCapacity(size)
        for offset in 0..<count { grown.append(storage[slot(offset)]) }
        grown.append(contentsOf: repeatElement(nil, count: size - count))
        storage = grown
        head = 0
        storageGrowths += 1
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
