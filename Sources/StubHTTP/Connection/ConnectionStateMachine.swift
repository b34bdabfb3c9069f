/// The life of one connection as a pure state machine: no I/O, no clock of its own. The
/// ``Connection`` feeds it events with the current time and carries out the ``Action`` it returns.
///
/// One request is in flight at a time: bytes of pipelined requests stay in the parser until the
/// previous response is flushed. Deadlines:
/// - *idle*: no request bytes buffered since the last response (or the accept) → close after
///   `idleTimeout`;
/// - *receiving*: part of a request head is buffered → `408` and close `headerReadTimeout` after its
///   first byte (a slow or stalled client, e.g. slowloris);
/// - *receiving a body*: the head is complete → `408` and close when no byte arrived for `idleTimeout`,
///   so a slow but steady upload is never cut off;
/// - *flushing*, or *streaming* while the socket does not take more: the client read nothing for
///   `idleTimeout` → close. Every write that makes progress restarts it, so a slow but steady reader
///   gets the whole body;
/// - *lingering*: after the final response, when the client may still be sending (bytes of a next
///   request are buffered, or the request was cut short by an error or a timeout), the write side is
///   shut and input is drained for `lingerTimeout`, so the client gets the response instead of a reset.
///   A clean close (a whole request answered, nothing more buffered) closes at once, as nginx's
///   `lingering_close on` does; so does a close while the server stops or after the client's EOF.
struct ConnectionStateMachine: Sendable {
    /// The timeouts the machine enforces.
    struct Timeouts: Sendable, Hashable {
        var headerReadTimeout: Duration
        var idleTimeout: Duration
        var lingerTimeout: Duration = .seconds(2)
    }

    enum State: Sendable, Hashable {
        case idle(since: Instant)
        /// `since`: the first byte of the request.
        case receiving(since: Instant)
        /// The head is complete; `since`: the last read.
        case receivingBody(since: Instant)
        case responding(keepAlive: Bool)
        /// `blockedSince`: the socket stopped taking bytes then and took none since; nil while it does.
        case streaming(close: Bool, blockedSince: Instant?)
        /// `since`: the response was ready, or the last write that made progress.
        case flushing(close: Bool, since: Instant)
        case lingering(since: Instant)
        case closed
    }

    /// What the connection must do next.
    enum Action: Sendable, Hashable {
        /// Nothing.
        case none
        /// Make sure a timer fires at (or before) this instant, then call ``timerFired(now:)``.
        case armTimer(Instant)
        /// Parse the buffered bytes for the next request.
        case parseNext
        /// Hand the parsed request to the handler.
        case dispatch
        /// Write the response; add `Connection: close` and close after it when `close`.
        case write(close: Bool)
        /// The request timed out half-way: write `408` and close.
        case writeTimeout
        /// The final response is out but the client may still be sending: shut the write side, drain
        /// input, and arm a timer for this instant.
        case linger(until: Instant)
        /// Close the socket now.
        case close
    }

    let timeouts: Timeouts
    private(set) var state: State
    /// The server is stopping: finish the request in flight, then close.
    private(set) var draining = false
    /// The client has shut its sending side: answer what is in flight, then close.
    private(set) var inputClosed = false
    /// The request in progress was cut short (parse error, refusal, timeout): the client may still be
    /// sending it, so closing must linger.
    private(set) var requestInterrupted = false
    /// The earliest timer the connection has armed, if any.
    private(set) var armedDeadline: Instant?

    init(timeouts: Timeouts, now: Instant) {
        self.timeouts = timeouts
        state = .idle(since: now)
    }

    /// Whether the parser may produce the next request now.
    var acceptsInput: Bool {
        switch state {
        case .idle, .receiving, .receivingBody: true
        case .responding, .streaming, .flushing, .lingering, .closed: false
        }
    }

    /// Whether a request is waiting for its response.
    var awaitsResponse: Bool {
        if case .responding = state { return true }
        return false
    }

    /// The instant the current state times out, if it does.
    var deadline: Instant? {
        switch state {
        case .idle(let since): since + timeouts.idleTimeout
        case .receiving(let since): since + timeouts.headerReadTimeout
        case .receivingBody(let since): since + timeouts.idleTimeout
        case .flushing(_, let since): since + timeouts.idleTimeout
        case .streaming(_, let blockedSince?): blockedSince + timeouts.idleTimeout
        case .lingering(let since): since + timeouts.lingerTimeout
        case .responding, .streaming, .closed: nil
        }
    }

    /// The start: arm the idle timer.
    mutating func start() -> Action { armIfNeeded() }

    /// The parser needs more bytes (after a read, or after a response when bytes were pipelined).
    /// `parserIdle`: no part of a request is buffered; `inBody`: the buffered request's head is complete.
    mutating func needsMoreInput(parserIdle: Bool, inBody: Bool = false, now: Instant) -> Action {
        switch state {
        case .idle:
            if inputClosed || draining, parserIdle { return close() }
            if !parserIdle { state = inBody ? .receivingBody(since: now) : .receiving(since: now) }
        case .receiving:
            if inputClosed { return close() }
            if inBody { state = .receivingBody(since: now) }
        case .receivingBody:
            if inputClosed { return close() }
            state = .receivingBody(since: now)
        case .responding, .streaming, .flushing, .lingering, .closed:
            return .none
        }
        return armIfNeeded()
    }

    /// The parser produced a request.
    mutating func requestParsed(keepAlive: Bool) -> Action {
        guard acceptsInput else { return .none }
        state = .responding(keepAlive: keepAlive)
        return .dispatch
    }

    /// The handler answered the request in flight. `requestedClose`: it asked for `Connection: close`.
    mutating func responseReady(requestedClose: Bool, now: Instant) -> Action {
        guard case .responding(let keepAlive) = state else { return .none }
        let close = !keepAlive || requestedClose || draining || inputClosed
        state = .flushing(close: close, since: now)
        return .write(close: close)
    }

    /// The handler started a streamed response. `framingCloses`: the body ends with the connection.
    /// The awaited response is the `200` that makes the connection a tunnel (a `CONNECT`): it stays open after it
    /// whatever the request's version said, unless the server stops or the client has ended its input.
    mutating func tunnelStarted(now: Instant) -> Action {
        guard case .responding = state else { return .none }
        let close = draining || inputClosed
        state = .flushing(close: close, since: now)
        return .write(close: close)
    }

    mutating func streamStarted(requestedClose: Bool, framingCloses: Bool) -> Action {
        guard case .responding(let keepAlive) = state else { return .none }
        let close = !keepAlive || requestedClose || framingCloses || draining || inputClosed
        state = .streaming(close: close, blockedSince: nil)
        return .write(close: close)
    }

    /// The streamed response is complete.
    mutating func streamFinished(now: Instant) -> Action {
        guard case .streaming(let close, _) = state else { return .none }
        state = .flushing(close: close, since: now)
        return .none
    }

    /// The request could not be parsed (or the server refuses it): write the error, then close.
    mutating func requestFailed(now: Instant) -> Action {
        switch state {
        case .closed, .lingering: return .none
        case .idle, .receiving, .receivingBody, .responding, .streaming, .flushing:
            requestInterrupted = true
            state = .flushing(close: true, since: now)
            return .write(close: true)
        }
    }

    /// All pending output reached the kernel. `inputPending`: bytes after the answered request are
    /// buffered (the client pipelined more, or sent more than the request held).
    mutating func outputFlushed(now: Instant, inputPending: Bool) -> Action {
        if case .streaming(let close, .some) = state {
            state = .streaming(close: close, blockedSince: nil)
            return .none
        }
        guard case .flushing(let close, _) = state else { return .none }
        if close {
            // Stopping: the response is out, do not hold the server up by lingering. After the client's
            // EOF nothing more can arrive; after a clean request nothing more is expected.
            if draining || inputClosed || !(requestInterrupted || inputPending) { return self.close() }
            state = .lingering(since: now)
            armedDeadline = now + timeouts.lingerTimeout
            return .linger(until: now + timeouts.lingerTimeout)
        }
        state = .idle(since: now)
        return .parseNext
    }

    /// A write would block: the client's reading deadline starts to matter. `progressed`: this flush
    /// wrote some bytes before blocking, so the client did read since the last time.
    mutating func outputBlocked(progressed: Bool, now: Instant) -> Action {
        switch state {
        case .flushing(let close, _) where progressed:
            state = .flushing(close: close, since: now)
        case .streaming(let close, let blockedSince):
            if progressed || blockedSince == nil { state = .streaming(close: close, blockedSince: now) }
        case .flushing, .idle, .receiving, .receivingBody, .responding, .lingering, .closed:
            break
        }
        return armIfNeeded()
    }

    /// The peer closed its sending side (read returned 0).
    mutating func inputEnded() -> Action {
        inputClosed = true
        switch state {
        case .idle, .receiving, .receivingBody, .lingering: return close()
        case .responding, .streaming, .flushing, .closed: return .none
        }
    }

    /// The server is stopping: idle connections close now, busy ones after their response.
    mutating func shutdown() -> Action {
        draining = true
        switch state {
        case .idle, .lingering: return close()
        case .receiving, .receivingBody, .responding, .streaming, .flushing, .closed: return .none
        }
    }

    /// A read or write failed, or the connection is being torn down.
    mutating func failed() -> Action { close() }

    /// The armed timer fired.
    mutating func timerFired(now: Instant) -> Action {
        armedDeadline = nil
        guard let deadline else { return .none }
        guard now >= deadline else { return armIfNeeded() }
        switch state {
        case .receiving, .receivingBody:
            requestInterrupted = true
            state = .flushing(close: true, since: now)
            return .writeTimeout
        case .idle, .flushing, .streaming, .lingering:
            return close()
        case .responding, .closed:
            return .none
        }
    }

    private mutating func close() -> Action {
        if case .closed = state { return .none }
        state = .closed
        armedDeadline = nil
        return .close
    }

    private mutating func armIfNeeded() -> Action {
        guard let deadline else { return .none }
        if let armed = armedDeadline, armed <= deadline { return .none }
        armedDeadline = deadline
        return .armTimer(deadline)
    }
}
