/// What a WebSocket stub does once a client has connected (stubserver's own; in stub files,
/// `metadata.stubserver.webSocket`): messages sent on connect, replies to the messages that match, and when
/// to close. See the WebSockets section of the StreamingResponses article.
///
/// ```swift
/// WebSocketScript(
///     onConnect: [.text("welcome")],
///     onMessage: [WebSocketReply(.equalTo("ping"), send: [.text("pong")])])
/// ```
public struct WebSocketScript: Sendable, Hashable {
    /// Sent, in order and each after its delay, once the connection is open.
    public var onConnect: [WebSocketOutgoing]
    /// For each message from the client, the first reply whose matcher matches it answers; a message no reply
    /// matches gets no answer (and is journaled as unmatched).
    public var onMessage: [WebSocketReply]
    /// Closes the connection after the `onConnect` messages, if set.
    public var closeAfterConnect: WebSocketClosing?
    /// The reply matchers the loader compiled when it checked this script (`CompiledMatchers`), which the server
    /// takes instead of compiling them again. Never makes two scripts unequal.
    package var loaded = LoadedParts()

    public init(
        onConnect: [WebSocketOutgoing] = [], onMessage: [WebSocketReply] = [],
        closeAfterConnect: WebSocketClosing? = nil
    ) {
        self.onConnect = onConnect
        self.onMessage = onMessage
        self.closeAfterConnect = closeAfterConnect
    }
}

/// One message the server sends, and how long after the one before (or after the trigger) it goes.
public struct WebSocketOutgoing: Sendable, Hashable {
    /// What the message carries.
    public enum Payload: Sendable, Hashable {
        /// A text message (`text`).
        case text(String)
        /// A JSON value, sent as a compact text message (`json`).
        case json(JSONValue)
        /// A binary message (`base64` in files).
        case binary([UInt8])
    }

    public var payload: Payload
    public var delay: Duration

    public init(_ payload: Payload, after delay: Duration = .zero) {
        self.payload = payload
        self.delay = delay
    }

    /// A text message.
    public static func text(_ text: String, after delay: Duration = .zero) -> WebSocketOutgoing {
        WebSocketOutgoing(.text(text), after: delay)
    }

    /// A JSON value as a compact text message.
    public static func json(_ value: JSONValue, after delay: Duration = .zero) -> WebSocketOutgoing {
        WebSocketOutgoing(.json(value), after: delay)
    }

    /// A binary message.
    public static func binary(_ bytes: [UInt8], after delay: Duration = .zero) -> WebSocketOutgoing {
        WebSocketOutgoing(.binary(bytes), after: delay)
    }
}

/// A reply rule of a ``WebSocketScript``: when a message from the client matches `matcher` (a text message's
/// text, or a binary message's bytes as UTF-8), send `send`, then close if `close` is set, and move the stub's
/// scenario to `newScenarioState` if set.
public struct WebSocketReply: Sendable, Hashable {
    /// Any string matcher: `equalTo`, `contains`, `matches` (a regular expression), `equalToJson`,
    /// `matchesJsonPath`, and the rest.
    public var matcher: StringMatcher
    public var send: [WebSocketOutgoing]
    public var close: WebSocketClosing?
    /// The state the stub's scenario moves to when this reply answers (needs the stub's `scenarioName`).
    public var newScenarioState: String?

    public init(
        _ matcher: StringMatcher, send: [WebSocketOutgoing] = [], close: WebSocketClosing? = nil,
        newScenarioState: String? = nil
    ) {
        self.matcher = matcher
        self.send = send
        self.close = close
        self.newScenarioState = newScenarioState
    }
}

/// The server closing a WebSocket: the close code and reason it sends, after a delay.
public struct WebSocketClosing: Sendable, Hashable {
    /// 1000 (normal) by default; 1000–1003, 1007–1014 or 3000–4999.
    public var code: Int
    /// At most 123 bytes of UTF-8.
    public var reason: String
    public var delay: Duration

    public init(code: Int = 1000, reason: String = "", after delay: Duration = .zero) {
        self.code = code
        self.reason = reason
        self.delay = delay
    }

    /// Why `code` and `reason` cannot be sent in a close frame, if they cannot (RFC 6455 §7.4).
    package static func problem(code: Int, reason: String) -> String? {
        let sendable = (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
        if !sendable { return "close code \(code) cannot be sent: use 1000–1003, 1007–1014 or 3000–4999" }
        if reason.utf8.count > 123 { return "a close reason has at most 123 bytes, this one \(reason.utf8.count)" }
        return nil
    }
}
