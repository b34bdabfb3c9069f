import StubHTTP

/// The journal as it grows, for the dashboard (`GET /__admin/stubserver/requests/live`): each open feed is
/// a server-sent event stream of ``RequestSummary``s, newest last, starting with the journal's most recent.
///
/// Bounded however fast requests come and however slowly the page reads: recording one costs a lock and,
/// only while a feed is open, a small summary appended to each feed's ring of ``maxPending``. A feed
/// writes at most every ``batchInterval``, one write at a time, from a timer on its connection's event loop
/// that hands the serializing to a worker thread; a write is skipped while more than ``maxBacklog`` bytes
/// still wait for the page, and what a feed skips or overflows is counted and told to the page as a
/// `dropped` event (tried again every ``retryInterval`` until the page takes it), before any request
/// recorded after them.
/// A feed ends when its connection closes (the tab closed, the server stopped), which removes it.
final class RequestFeed: Sendable {
    /// The most feeds open at once; one more is answered 503.
    static let maxSubscribers = 16
    /// Summaries waiting per feed between two writes; beyond, the oldest are dropped and counted.
    static let maxPending = 1_000
    /// How long a recorded request waits, at most, to be sent with those after it.
    static let batchInterval: Duration = .milliseconds(100)
    /// While more than this many bytes wait for the page, a write is skipped and its requests counted.
    static let maxBacklog = 64 * 1024
    /// The kernel's send buffer of a feed's connection (``HTTPResponseStream/limitSendBuffer(to:)``): a
    /// page that stops reading takes a few hundred KiB before it is behind, not the 4 MiB a send buffer
    /// grows to on Linux, which the kernel spends CPU filling and packing. A feed sends at most
    /// ``maxBatchBytes`` every ``batchInterval``; this buffer keeps up with that over a path of 25 ms.
    static let sendBuffer = 64 * 1024
    /// How often a feed whose page is behind tries again to tell it what it missed.
    static let retryInterval: Duration = .milliseconds(250)
    /// The most bytes of events one write sends (below the engine's cut, ``HTTPServerConfiguration/maxStreamBacklog``).
    static let maxBatchBytes = 256 * 1024
    /// The most recent journal entries a new feed starts with.
    static let initialCount = 200

    private struct Subscriber {
        let token: Int
        let stream: HTTPResponseStream
        let submit: @Sendable (@escaping @Sendable () -> Void) -> Bool
        /// The feed started with the entries up to this sequence number: a request is sent only if it is newer.
        let startsAfter: Int
        var pending = RingBuffer<RequestSummary>(capacity: RequestFeed.maxPending)
        /// Requests recorded for this feed and not sent: overflowed or skipped.
        var dropped = 0
        /// A flush is scheduled or a write is on its way. One at a time, so that the page gets the requests
        /// and the counts of those it missed in the order they came; a request recorded meanwhile waits.
        var busy = false
        /// The last write was skipped: until one goes through, requests are only counted, and a write sends
        /// only their count (nothing is summarized or serialized for a page that is not reading).
        var behind = false
    }

    private struct State {
        /// At most ``maxSubscribers``: searched by token, changed in place (never copied out and back, which
        /// would copy a feed's ring for every request).
        var subscribers: [Subscriber] = []
        var nextToken = 1

        /// Runs `body` on feed `token` in place; `nil` if it is gone.
        mutating func with<R>(_ token: Int, _ body: (inout Subscriber) -> R) -> R? {
            guard let index = subscribers.firstIndex(where: { $0.token == token }) else { return nil }
            return body(&subscribers[index])
        }
    }

    private let state = LockedValue(State())

    /// How many feeds are open.
    var count: Int { state.withLock { $0.subscribers.count } }

    /// How many open feeds have a page that is behind: their last write was skipped, and until one goes
    /// through they only count requests.
    var behindCount: Int { state.withLock { $0.subscribers.reduce(0) { $0 + ($1.behind ? 1 : 0) } } }

    /// Adds a feed on `stream` that starts with `recent` (oldest first, the last ``initialCount`` of them) and
    /// then gets every request recorded with a sequence number above `startsAfter`; ``start(_:)`` sends its
    /// first batch. `submit` runs the
    /// serializing off the event loop. Returns the token for ``close(_:)``, or `nil` when ``maxSubscribers``
    /// are open.
    ///
    /// The journal calls this while it holds its lock, so that no request falls between `recent` and the
    /// feed (see ``RequestJournal/openFeed(_:submit:)``).
    func open(
        _ stream: HTTPResponseStream, recent: [LoggedRequest], startsAfter: Int,
        submit: @escaping @Sendable (@escaping @Sendable () -> Void) -> Bool
    ) -> Int? {
        guard count < Self.maxSubscribers else { return nil }
        let summaries = recent.suffix(Self.initialCount).map(RequestSummary.init)
        return state.withLock { state in
            guard state.subscribers.count < Self.maxSubscribers else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            var subscriber = Subscriber(token: token, stream: stream, submit: submit, startsAfter: startsAfter)
            for summary in summaries { _ = subscriber.pending.append(summary) }
            subscriber.busy = true  // until ``start(_:)``'s write is done
            state.subscribers.append(subscriber)
            return token
        }
    }

    /// Sends the first batch of feed `token`, opened by ``open(_:recent:startsAfter:submit:)``.
    func start(_ token: Int) {
        flush(token)
    }

    /// The feed's stream ended: forget it.
    /// - Returns: whether the feed was open.
    @discardableResult
    func close(_ token: Int) -> Bool {
        state.withLock { state in
            let count = state.subscribers.count
            state.subscribers.removeAll { $0.token == token }
            return state.subscribers.count < count
        }
    }

    /// Hands `entry` to every open feed. Called by the journal for each recorded request, on the thread
    /// that recorded it (so not always in sequence order when requests come at once).
    func recorded(_ entry: LoggedRequest) {
        let toSchedule: [(Int, HTTPResponseStream)] = state.withLock { state in
            guard !state.subscribers.isEmpty else { return [] }
            var summary: RequestSummary?
            var due: [(Int, HTTPResponseStream)] = []
            for index in state.subscribers.indices where entry.id > state.subscribers[index].startsAfter {
                if state.subscribers[index].behind {
                    state.subscribers[index].dropped += 1
                } else {
                    if summary == nil { summary = RequestSummary(entry) }
                    if let summary, state.subscribers[index].pending.append(summary) != nil {
                        state.subscribers[index].dropped += 1
                    }
                }
                if !state.subscribers[index].busy {
                    state.subscribers[index].busy = true
                    due.append((state.subscribers[index].token, state.subscribers[index].stream))
                }
            }
            return due
        }
        for (token, stream) in toSchedule {
            stream.schedule(after: Self.batchInterval) { [weak self] in self?.flush(token) }
        }
    }

    /// Sends what waits for feed `token`, serialized on a worker thread.
    private func flush(_ token: Int) {
        guard let submit = state.withLock({ $0.with(token) { $0.submit } }) else { return }
        let started = submit { [weak self] in self?.write(token) }
        if !started { close(token) }
    }

    /// Takes what waits for feed `token` and writes it as one batch of events.
    private func write(_ token: Int) {
        let taken: (HTTPResponseStream, [RequestSummary], Int, Bool)? = state.withLock { state in
            state.with(token) { subscriber in
                defer {
                    subscriber.pending.removeAll()
                    subscriber.dropped = 0
                }
                return (subscriber.stream, subscriber.pending.elements, subscriber.dropped, subscriber.behind)
            }
        }
        guard let (stream, batch, dropped, behind) = taken else { return }
        let count = dropped + batch.count
        guard count > 0 else { return finished(token, skipped: 0) }
        var bytes: [UInt8] = []
        if behind {  // the page was not reading: first see whether it takes the count of what it missed
            Self.appendEvent("dropped", ["count": JSONValue(count)], id: nil, into: &bytes)
        } else {
            Self.appendBatch(batch, dropped: dropped, into: &bytes)
        }
        stream.write(bytes, unlessBacklogExceeds: Self.maxBacklog) { [weak self] written in
            self?.finished(token, skipped: written ? 0 : count)
        }
    }

    /// `batch` as events, in sequence order, after a `dropped` event counting `dropped` and the oldest of
    /// `batch` that did not fit in ``maxBatchBytes`` (the newest requests are first in line for the bytes).
    private static func appendBatch(_ batch: [RequestSummary], dropped: Int, into bytes: inout [UInt8]) {
        var events: [[UInt8]] = []
        var size = 0
        for summary in batch.sorted(by: { $0.sequence > $1.sequence }) {
            var event: [UInt8] = []
            summary.appendEvent(into: &event)
            size += event.count
            guard size <= Self.maxBatchBytes else { break }
            events.append(event)
        }
        bytes.reserveCapacity(size + 64)
        let overflow = dropped + batch.count - events.count
        if overflow > 0 { Self.appendEvent("dropped", ["count": JSONValue(overflow)], id: nil, into: &bytes) }
        for event in events.reversed() { bytes.append(contentsOf: event) }
    }

    /// The write of feed `token` is done, `skipped` requests not sent (the page is behind): count them, and
    /// send what waits after ``batchInterval``, or, while the page is behind, try again after
    /// ``retryInterval`` to tell it what it missed (with whatever came meanwhile), until it takes it.
    private func finished(_ token: Int, skipped: Int) {
        let next: (HTTPResponseStream, Duration)? = state.withLock { state in
            state.with(token) { subscriber -> (HTTPResponseStream, Duration)? in
                subscriber.dropped += skipped
                subscriber.behind = skipped > 0
                guard subscriber.dropped > 0 || subscriber.pending.count > 0 else {
                    subscriber.busy = false
                    return nil
                }
                return (subscriber.stream, subscriber.behind ? Self.retryInterval : Self.batchInterval)
            } ?? nil
        }
        if let (stream, delay) = next {
            stream.schedule(after: delay) { [weak self] in self?.flush(token) }
        }
    }

    /// `event: <name>\n[id: <id>\n]data: <json>\n\n`.
    static func appendEvent(_ name: String, _ data: JSONValue, id: Int?, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: "event: \(name)\n".utf8)
        if let id { bytes.append(contentsOf: "id: \(id)\n".utf8) }
        bytes.append(contentsOf: "data: ".utf8)
        data.write(into: &bytes, indent: nil)
        bytes.append(contentsOf: "\n\n".utf8)
    }
}
