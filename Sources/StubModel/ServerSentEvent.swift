/// One server-sent event (the `text/event-stream` format of the HTML standard): its fields, and how long
/// after the event before it (or after the response's head) it is sent.
///
/// ```swift
/// ServerSentEvent(data: "one", after: .milliseconds(50))
/// ServerSentEvent(data: #"{"score": 2}"#, event: "goal", id: "7")
/// ServerSentEvent(comment: "keep-alive", after: .seconds(1))
/// ```
/// In stub files, an element of `metadata.stubserver.events` (see the StreamingResponses article).
public struct ServerSentEvent: Sendable, Hashable {
    /// `data`: the payload; a value with line breaks goes out as several `data:` lines, which the client
    /// joins back with `\n`. `nil` sends no `data` line (a comment, or an `id`/`retry` alone).
    public var data: String?
    /// `event`: the event type (the client's `addEventListener` name); `nil` for `message`.
    public var event: String?
    /// `id`: the client's last event ID, sent back as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// `retry`: the client's reconnection time in milliseconds.
    public var retry: Int?
    /// A comment line (`: text`), ignored by clients: a keep-alive.
    public var comment: String?
    /// How long after the event before it (or after the head, for the first) this one is sent.
    public var delay: Duration

    public init(
        data: String? = nil, event: String? = nil, id: String? = nil, retry: Int? = nil, comment: String? = nil,
        after delay: Duration = .zero
    ) {
        self.data = data
        self.event = event
        self.id = id
        self.retry = retry
        self.comment = comment
        self.delay = delay
    }

    /// The event on the wire: comment, `event`, `id`, `retry` and `data` lines, then a blank line.
    public var wireBytes: [UInt8] {
        var text = ""
        if let comment { for line in Self.lines(of: comment) { text += line.isEmpty ? ":\n" : ": \(line)\n" } }
        if let event { text += "event: \(event)\n" }
        if let id { text += "id: \(id)\n" }
        if let retry { text += "retry: \(retry)\n" }
        if let data { for line in Self.lines(of: data) { text += line.isEmpty ? "data\n" : "data: \(line)\n" } }
        text += "\n"
        return Array(text.utf8)
    }

    /// `text` split at CR, LF and CRLF, the line ends of the format.
    static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var index = start
        while index < text.endIndex {
            let character = text[index]
            if character == "\r\n" || character == "\n" || character == "\r" {
                lines.append(text[start..<index])
                index = text.index(after: index)
                start = index
            } else {
                index = text.index(after: index)
            }
        }
        lines.append(text[start..<text.endIndex])
        return lines
    }

    /// Why `value` cannot be the single-line field `event` or `id`, if it cannot.
    package static func singleLineProblem(_ value: String) -> String? {
        if value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) { return "it must be one line" }
        if value.unicodeScalars.contains("\u{0}") { return "it must not contain NUL" }
        return nil
    }
}

/// A response sent as a stream (stubserver's own; in stub files under `metadata.stubserver`): server-sent
/// events or lines, each after its delay, flushed one by one, then an end. See the StreamingResponses article.
public struct ResponseStream: Sendable, Hashable {
    /// What is streamed.
    public enum Content: Sendable, Hashable {
        /// `text/event-stream` events (`events`).
        case events([ServerSentEvent])
        /// Lines, each followed by `\n` (`lines`): line-delimited JSON (`application/x-ndjson`) or text.
        case lines([StreamedLine])
    }

    /// What happens after the last event or line (`streamEnd`).
    public enum End: String, Sendable, Hashable, CaseIterable {
        /// The response ends properly (`"finish"`, the default).
        case finish
        /// The response stays open (`"open"`): a test pushes more (``StubServer/streams(matching:)``)
        /// until it finishes them, the client leaves or the server stops.
        case open
        /// The connection closes mid-response (`"fault"`): the client sees a failed stream.
        case fault
    }

    public var content: Content
    public var end: End

    public init(_ content: Content, end: End = .finish) {
        self.content = content
        self.end = end
    }

    /// The `Content-Type` sent when the stub sets none.
    var defaultContentType: String {
        switch content {
        case .events: "text/event-stream"
        case .lines: "application/x-ndjson"
        }
    }
}

/// One line of a ``ResponseStream/Content/lines(_:)`` stream, and how long after the line before it is sent.
public struct StreamedLine: Sendable, Hashable {
    /// The line without its `\n`.
    public var text: String
    public var delay: Duration

    public init(_ text: String, after delay: Duration = .zero) {
        self.text = text
        self.delay = delay
    }

    /// The line on the wire: its text and `\n`.
    public var wireBytes: [UInt8] { Array((text + "\n").utf8) }

    /// A JSON value as one compact line.
    public static func json(_ value: JSONValue, after delay: Duration = .zero) -> StreamedLine {
        StreamedLine(value.serialized(.compact), after: delay)
    }
}
