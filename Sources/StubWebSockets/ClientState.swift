/// A call waiting on the connection: resumed once, by the connection's thread (a message came, the deadline
/// passed, the connection ended) or by the caller's cancellation.
struct Waiter<Value: Sendable>: Sendable {
    typealias Outcome = Result<Value, StubWebSocketClient.Failure>
    let id: Int
    /// When it gives up; nil for never.
    let deadline: ContinuousClock.Instant?
    /// The failure it ends with at its deadline.
    let timeout: StubWebSocketClient.Failure
    let continuation: CheckedContinuation<Outcome, Never>

    func resume(_ outcome: Outcome) { continuation.resume(returning: outcome) }
}

/// A frame for the connection's thread to write: a message a caller waits on (`id`), or the thread's own.
struct OutgoingFrame: Sendable {
    enum Kind: Sendable, Hashable {
        /// A message; `id` is its sender's ``Waiter``, resumed once the frame is written.
        case sent(id: Int)
        /// A ping from ``StubWebSocketClient/ping(timeout:)``, whose waiter the pong resumes.
        case ping
        /// A pong answering the server's ping (at most one waits unwritten: a newer ping replaces its payload).
        case pong
        /// The client's close frame.
        case close
    }
    var kind: Kind
    var bytes: [UInt8]
    /// How many of `bytes` are written.
    var written = 0
}

/// What the callers and the connection's thread share, under one lock.
struct ClientState: Sendable {
    enum Phase: Sendable, Hashable {
        case connecting, open, ended
    }

    var phase = Phase.connecting
    /// Messages received and not yet taken, oldest at `inboxHead`.
    private(set) var inbox: [StubWebSocketClient.Message] = []
    private var inboxHead = 0
    /// What the messages in the inbox count against ``StubWebSocketClient/Configuration/maxUnreceivedBytes``.
    private(set) var inboxBytes = 0
    /// Why the connection ended (set with `phase = .ended`): what calls get once the inbox is empty.
    var ending: StubWebSocketClient.Failure?
    /// The server's close frame, once it came.
    var serverClose: StubWebSocketClient.Close?
    /// The close the test asked for (the thread queues it unless a close frame went already), and whether it
    /// asked (no sends after).
    var closeRequest: StubWebSocketClient.Close?
    var clientClosed = false
    /// Whether the client's close frame (asked for, or the echo of the server's) is queued: no message after it.
    var closeQueued = false
    /// Why the thread must stop at once (the client was released, the connect was cancelled), if it must.
    var abandoned: StubWebSocketClient.Failure?
    /// Frames queued by callers, not yet taken by the thread.
    var outgoing: [OutgoingFrame] = []

    var connecting: CheckedContinuation<Result<Opened, StubWebSocketClient.Failure>, Never>?
    var receivers: [Waiter<StubWebSocketClient.Message>] = []
    var senders: [Waiter<Void>] = []
    /// `ping(timeout:)` calls, with the payload whose pong answers each.
    var pingers: [(payload: [UInt8], waiter: Waiter<Void>)] = []
    /// `close` and `waitForClose` calls: answered when the connection ends. `endsConnection`: a close, whose
    /// timeout gives the connection up; a wait's only ends the wait.
    var closers: [(endsConnection: Bool, waiter: Waiter<StubWebSocketClient.Close>)] = []
    /// Whether the waker's descriptors are closed: nobody may write to them any more.
    var wakerClosed = false
    private var lastID = 0

    /// What the handshake learned.
    struct Opened: Sendable {
        var subprotocol: String?
        var headers: [(name: String, value: String)]
    }

    mutating func nextID() -> Int {
        lastID += 1
        return lastID
    }

    /// Takes the oldest message received, if any.
    mutating func takeMessage() -> StubWebSocketClient.Message? {
        guard inboxHead < inbox.count else { return nil }
        let message = inbox[inboxHead]
        inboxHead += 1
        inboxBytes -= message.bufferedCost
        if inboxHead == inbox.count {
            inbox.removeAll(keepingCapacity: inbox.capacity <= 1024)
            inboxHead = 0
        } else if inboxHead >= 1024, inboxHead * 2 >= inbox.count {
            inbox.removeSubrange(0..<inboxHead)
            inboxHead = 0
        }
        return message
    }

    /// Hands `message` to the oldest receiver waiting, or keeps it; `false` when keeping it would go past `limit`.
    mutating func deliver(_ message: StubWebSocketClient.Message, limit: Int, resuming: inout [() -> Void]) -> Bool {
        if !receivers.isEmpty {
            let receiver = receivers.removeFirst()
            resuming.append { receiver.resume(.success(message)) }
            return true
        }
        guard message.bufferedCost <= limit - inboxBytes else { return false }
        inbox.append(message)
        inboxBytes += message.bufferedCost
        return true
    }

    /// Removes the waiter `id` wherever it waits, with the outcome it should get when cancelled.
    mutating func cancel(_ id: Int, _ failure: StubWebSocketClient.Failure, resuming: inout [() -> Void]) {
        if let index = receivers.firstIndex(where: { $0.id == id }) {
            let waiter = receivers.remove(at: index)
            resuming.append { waiter.resume(.failure(failure)) }
        } else if let index = pingers.firstIndex(where: { $0.waiter.id == id }) {
            let waiter = pingers.remove(at: index).waiter
            resuming.append { waiter.resume(.failure(failure)) }
        } else if let index = closers.firstIndex(where: { $0.waiter.id == id }) {
            let waiter = closers.remove(at: index).waiter
            resuming.append { waiter.resume(.failure(failure)) }
        }
        // A send is not cancelled: its bytes may be on the wire already (half a frame), and it is bounded by
        // its own timeout.
    }

    /// Resumes every waiter whose deadline is past: receivers, pings and waits for the close with their
    /// timeout (the connection stays); a send or a close whose timeout passed is returned, and ends the connection.
    mutating func expire(at now: ContinuousClock.Instant, resuming: inout [() -> Void]) -> StubWebSocketClient.Failure?
    {
        func isDue(_ deadline: ContinuousClock.Instant?) -> Bool { deadline.map { $0 <= now } ?? false }
        for waiter in receivers where isDue(waiter.deadline) {
            resuming.append { waiter.resume(.failure(waiter.timeout)) }
        }
        receivers.removeAll { isDue($0.deadline) }
        for entry in pingers where isDue(entry.waiter.deadline) {
            resuming.append { entry.waiter.resume(.failure(entry.waiter.timeout)) }
        }
        pingers.removeAll { isDue($0.waiter.deadline) }
        var fatal: StubWebSocketClient.Failure?
        for entry in closers where isDue(entry.waiter.deadline) {
            if entry.endsConnection {
                fatal = fatal ?? entry.waiter.timeout
            } else {
                resuming.append { entry.waiter.resume(.failure(entry.waiter.timeout)) }
            }
        }
        closers.removeAll { isDue($0.waiter.deadline) && !$0.endsConnection }
        if let sender = senders.first(where: { isDue($0.deadline) }) { fatal = fatal ?? sender.timeout }
        return fatal
    }

    /// The nearest deadline of any waiter.
    var nearestDeadline: ContinuousClock.Instant? {
        let deadlines =
            receivers.compactMap(\.deadline) + pingers.compactMap(\.waiter.deadline)
            + closers.compactMap(\.waiter.deadline) + senders.compactMap(\.deadline)
        return deadlines.min()
    }

    /// Marks the connection ended with `failure` (unless it already ended) and resumes every waiter: receivers
    /// (the inbox is empty when one waits), sends and pings with the failure, closes with the server's close frame
    /// when it came, else the failure.
    mutating func end(_ failure: StubWebSocketClient.Failure, resuming: inout [() -> Void]) {
        if phase != .ended {
            phase = .ended
            ending = failure
        }
        let ending = self.ending ?? failure
        if let connecting {
            resuming.append { connecting.resume(returning: .failure(ending)) }
            self.connecting = nil
        }
        for waiter in receivers { resuming.append { waiter.resume(.failure(ending)) } }
        for waiter in senders { resuming.append { waiter.resume(.failure(ending)) } }
        for entry in pingers { resuming.append { entry.waiter.resume(.failure(ending)) } }
        let close = serverClose
        for entry in closers {
            resuming.append { entry.waiter.resume(close.map { .success($0) } ?? .failure(ending)) }
        }
        receivers = []
        senders = []
        pingers = []
        closers = []
        outgoing = []
    }
}
