/// A connection's WebSocket after its `101` head: the frame parser and message assembler, how far the closing
/// handshake went, the handler, and the one timer (close deadline, idle timeout, pings). Loop thread only; the
/// ``Connection`` drives it (`Connection+WebSocket.swift`).
final class WebSocketSession {
    /// The upgrade request's generation on its connection: a ``WebSocketConnection`` acts on this session only.
    let generation: UInt64
    /// What the handler is given.
    let handle: WebSocketConnection
    let configuration: WebSocketConfiguration
    private let handler: any WebSocketHandler
    var parser: WebSocketFrameParser
    var assembler: WebSocketMessageAssembler
    /// A close frame was queued: nothing more is sent.
    var closeSent = false
    /// The closing handshake is over (the client's close answered, or the connection failed): input is dropped,
    /// the write side is shut once the output is flushed, and the connection closes at the client's EOF.
    var finishing = false
    /// The write side was shut (after ``finishing``).
    var writeShut = false
    /// The TCP connection is closed then, if nothing closed it before: a close sent waits this long for its answer.
    var closeDeadline: Instant?
    /// When the client last sent bytes (for ``WebSocketConfiguration/idleTimeout``).
    var lastInput: Instant
    /// When the server last sent a ping of its own (for ``WebSocketConfiguration/pingInterval``).
    var lastPing: Instant
    /// The scheduled timer, cancelled when the connection closes.
    var timer: EventLoop.TimerHandle?
    /// Work the program scheduled for later (``WebSocketConnection/after(_:_:)``), by number: cancelled when the
    /// connection closes, at most ``maxLaterWork`` at once.
    var later: [UInt64: EventLoop.TimerHandle] = [:]
    var nextLater: UInt64 = 0
    /// The most work one connection may have scheduled for later at once: a client sending faster than delayed
    /// replies go out is closed with 1008 past it, so it cannot make the server grow.
    static let maxLaterWork = 4_096
    /// The handler was told the connection closed.
    private var reportedClosed = false

    init(
        generation: UInt64, handle: WebSocketConnection, configuration: WebSocketConfiguration,
        handler: any WebSocketHandler, now: Instant
    ) {
        self.generation = generation
        self.handle = handle
        self.configuration = configuration
        self.handler = handler
        parser = WebSocketFrameParser(limits: configuration.limits)
        assembler = WebSocketMessageAssembler(limits: configuration.limits)
        lastInput = now
        lastPing = now
    }

    /// Tells the handler the connection opened.
    func opened() {
        handler.opened(handle)
    }

    /// Hands the handler a data message.
    func received(_ message: WebSocketMessage) {
        handler.received(message, on: handle)
    }

    /// Tells the handler the connection closed with `code`; only the first call counts.
    func reportClosed(_ code: WebSocketCloseCode, _ reason: String) {
        guard !reportedClosed else { return }
        reportedClosed = true
        handler.closed(handle, code: code, reason: reason)
    }

    /// The earliest instant the timer must fire at, if any: the close deadline; before a close was sent, also
    /// the idle timeout and the next ping.
    var nextDeadline: Instant? {
        var deadlines = [closeDeadline]
        if !closeSent {
            deadlines.append(configuration.idleTimeout.map { lastInput + $0 })
            deadlines.append(configuration.pingInterval.map { lastPing + $0 })
        }
        return deadlines.compactMap { $0 }.min()
    }

    /// Moves the close deadline to `now + wait`, unless it is earlier already.
    func closeBy(_ now: Instant, waiting wait: Duration) {
        let deadline = now + wait
        if let closeDeadline, closeDeadline <= deadline { return }
        closeDeadline = deadline
    }

    /// Fields of the upgrade's answer the server writes itself: those a handler's `headers` may not replace.
    private static let reservedFields = [
        "Upgrade", "Connection", "Sec-WebSocket-Accept", "Sec-WebSocket-Protocol", "Sec-WebSocket-Extensions",
        "Content-Length", "Transfer-Encoding", "Date"
    ]

    /// Appends the `101` head: the handshake's status line and fields, then `extra` (less the reserved fields),
    /// `Date`, and the empty line. No body, no `Content-Length`: the connection speaks WebSocket right after.
    static func appendHead(_ head: HTTPResponse, adding extra: HTTPHeaders, dateLine: [UInt8], into out: inout [UInt8])
    {
        out.append(contentsOf: "HTTP/1.1 \(head.status.code) \(head.status.reasonPhrase)\r\n".utf8)
        let fields =
            Array(head.headers)
            + extra.filter { field in
                !reservedFields.contains { HTTPHeaders.equalsIgnoringCase($0, field.name) }
            }
        for field in fields {
            out.append(contentsOf: "\(field.name): \(field.value)\r\n".utf8)
        }
        out.append(contentsOf: dateLine)
        out.append(contentsOf: "\r\n".utf8)
    }
}
