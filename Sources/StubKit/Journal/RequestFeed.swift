import StubHTTP

/// The journal as it grows, for the dashboard (`GET /__admin/stubserver/requests/live`): each open feed is
/// a server-sent event stream of ``RequestSummary``s, newest last, starting with the journal's most recent.
///
/// Bounded however fast requests come and however slowly the page reads: recording one costs a lock and,
/// only while a feed is open, a small summary appended to each feed's ring of ``maxPending``. A feed
/// writes at most every ``batchInterval``, from a timer on its connection's event loop that hands the
/// serializing to a worker thread; a write is skipped while more than ``maxBacklog`` bytes still wait for
/// the page, and what a feed skips or overflows is counted and told to the page as a `dropped` event (tried
/// again every ``retryInterval`` until the page takes it).
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
        var pending = RingBuffer<RequestSummary>(capacity: RequestFeed.maxPending)
        /// Requests recorded for this feed and not sent: overflowed or skipped.
        var dropped = 0
        /// The highest sequence number sent or waiting; an entry at or below it is not sent again.
        var newest = 0
        var flushScheduled = false
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

    /// Opens a feed on `stream`, starting with `recent` (oldest first). `submit` runs the serializing off the
    /// event loop. Returns the token for ``close(_:)``, or `nil` when ``maxSubscribers`` are open.
    func open(
        _ stream: HTTPResponseStream, recent: [LoggedRequest],
        submit: @escaping @Sendable (@escaping @Sendable () -> Void) -> Bool
    ) -> Int? {
        let summaries = recent.suffix(Self.initialCount).map(RequestSummary.init)
        let token: Int? = state.withLock { state in
            guard state.subscribers.count < Self.maxSubscribers else { return nil }
            let token = state.nextToken
            state.nextToken += 1
            var subscriber = Subscriber(token: token, stream: stream, submit: submit)
            for summary in summaries { _ = subscriber.pending.append(summary) }
            subscriber.newest = summaries.last?.sequence ?? 0
            subscriber.flushScheduled = true
            state.subscribers.append(subscriber)
            return token
        }
        if let token { flush(token) }
        return token
    }

    /// The feed's stream ended: forget it.
    func close(_ token: Int) {
        state.withLock { $0.subscribers.removeAll { $0.token == token } }
    }

    /// Hands `entry` to every open feed. Called by the journal for each recorded request, on the thread
    /// that recorded it.
    func recorded(_ entry: LoggedRequest) {
        let toSchedule: [(Int, HTTPResponseStream)] = state.withLock { state in
            guard !state.subscribers.isEmpty else { return [] }
            var summary: RequestSummary?
            var due: [(Int, HTTPResponseStream)] = []
            for index in state.subscribers.indices where entry.id > state.subscribers[index].newest {
                state.subscribers[index].newest = entry.id
                if state.subscribers[index].behind {
                    state.subscribers[index].dropped += 1
                } else {
                    if summary == nil { summary = RequestSummary(entry) }
                    if let summary, state.subscribers[index].pending.append(summary) != nil {
                        state.subscribers[index].dropped += 1
                    }
                }
                if !state.subscribers[index].flushScheduled {
                    state.subscribers[index].flushScheduled = true
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
                    subscriber.flushScheduled = false
                    subscriber.behind = false  // until this write is skipped
                }
                return (subscriber.stream, subscriber.pending.elements, subscriber.dropped, subscriber.behind)
            }
        }
        guard let (stream, batch, dropped, behind) = taken, !batch.isEmpty || dropped > 0 else { return }
        if behind {  // the page was not reading: first see whether it takes the count of what it missed
            var bytes: [UInt8] = []
            let count = dropped + batch.count
            Self.appendEvent("dropped", ["count": JSONValue(count)], id: nil, into: &bytes)
            return stream.write(bytes, unlessBacklogExceeds: Self.maxBacklog) { [weak self] in
                self?.skipped(count, token: token)
            }
        }
        // The newest requests first in line for the batch's bytes; older ones past the bound are dropped.
        var events: [[UInt8]] = []
        var size = 0
        for summary in batch.reversed() {
            var event: [UInt8] = []
            summary.appendEvent(into: &event)
            size += event.count
            guard size <= Self.maxBatchBytes else { break }
            events.append(event)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size + 64)
        let overflow = dropped + batch.count - events.count
        if overflow > 0 { Self.appendEvent("dropped", ["count": JSONValue(overflow)], id: nil, into: &bytes) }
        for event in events.reversed() { bytes.append(contentsOf: event) }
        let count = events.count + overflow
        stream.write(bytes, unlessBacklogExceeds: Self.maxBacklog) { [weak self] in
            self?.skipped(count, token: token)
        }
    }

    /// A batch of `count` requests was not written (the page is behind): count them, and try again after
    /// ``retryInterval`` to tell the page (with whatever came meanwhile), until it takes it.
    private func skipped(_ count: Int, token: Int) {
        let stream: HTTPResponseStream? = state.withLock { state in
            state.with(token) { subscriber -> HTTPResponseStream? in
                subscriber.dropped += count
                subscriber.behind = true
                guard !subscriber.flushScheduled else { return nil }
                subscriber.flushScheduled = true
                return subscriber.stream
            } ?? nil
        }
        stream?.schedule(after: Self.retryInterval) { [weak self] in self?.flush(token) }
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
