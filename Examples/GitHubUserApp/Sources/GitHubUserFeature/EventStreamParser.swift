/// One event of a `text/event-stream`, as ``EventStreamParser`` dispatches it.
public struct EventStreamMessage: Sendable, Equatable {
    /// The stream's last event ID when the event was dispatched (its own `id:` line, or an earlier one's);
    /// `nil` when the stream never sent one.
    public var id: String?
    /// The `event:` type, `message` when the event had none.
    public var event: String
    /// The `data:` lines, joined with `\n`.
    public var data: String

    public init(id: String? = nil, event: String = "message", data: String) {
        self.id = id
        self.event = event
        self.data = data
    }
}

/// Why ``EventStreamParser/feed(_:)`` stopped reading a stream.
public enum EventStreamError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One event (its unfinished line and data) grew past the parser's bound: the server sent no blank line.
    case eventTooLarge(limit: Int)

    public var description: String {
        switch self {
        case .eventTooLarge(let limit):
            "The event stream sent an event larger than \(limit) bytes (no blank line ends it)"
        }
    }
}

/// An incremental parser of the `text/event-stream` format (the HTML standard's server-sent events): feed it
/// bytes as they arrive, in chunks of any size, and it returns the events they complete.
///
/// It handles CRLF, LF and CR line ends (also split between two chunks), several `data:` lines, comments
/// (`: …`), `retry:` and a leading byte-order mark. An event still open when the stream ends is dropped, as
/// the standard says. Pure: no I/O, no clock.
///
/// ```swift
/// var parser = EventStreamParser()
/// let events = try parser.feed(Array("id: 1\ndata: hello\n\n".utf8))  // [EventStreamMessage(id: "1", data: "hello")]
/// ```
public struct EventStreamParser: Sendable {
    /// The default bound of one event, in bytes: ``EventStreamError/eventTooLarge(limit:)`` past it.
    public static let defaultMaxEventBytes = 64 * 1024

    /// The last event ID: what a client sends back as `Last-Event-ID` when it reconnects.
    public private(set) var lastEventID: String?
    /// The reconnection time the server asked for (`retry:`), in milliseconds; `nil` if it sent none.
    public private(set) var retryMilliseconds: Int?

    private let maxEventBytes: Int
    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var eventType = ""
    private var idBuffer: String?
    private var afterCR = false
    private var isFirstLine = true

    /// A parser for a new connection.
    /// - Parameters:
    ///   - lastEventID: the last event ID of an earlier connection to the same stream, kept until the server
    ///     sends another.
    ///   - maxEventBytes: the bound of one event's bytes.
    public init(lastEventID: String? = nil, maxEventBytes: Int = EventStreamParser.defaultMaxEventBytes) {
        self.lastEventID = lastEventID
        self.idBuffer = lastEventID
        self.maxEventBytes = maxEventBytes
    }

    /// Reads `bytes`, the next part of the stream, and returns the events they complete, in order.
    /// - Throws: ``EventStreamError/eventTooLarge(limit:)`` when one event grows past the bound.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(EventStreamError) -> [EventStreamMessage] {
        var events: [EventStreamMessage] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == Self.lf { continue }  // the LF of a CRLF whose CR ended the line
            }
            if byte == Self.cr || byte == Self.lf {
                afterCR = byte == Self.cr
                if let event = endLine() { events.append(event) }
                continue
            }
            line.append(byte)
            if line.count + data.count > maxEventBytes { throw .eventTooLarge(limit: maxEventBytes) }
        }
        return events
    }

    /// Handles the line in `line`: a field, a comment, or the blank line that dispatches the event.
    private mutating func endLine() -> EventStreamMessage? {
        defer {
            line.removeAll(keepingCapacity: true)
            isFirstLine = false
        }
        if isFirstLine, line.starts(with: Self.byteOrderMark) { line.removeFirst(Self.byteOrderMark.count) }
        if line.isEmpty { return dispatch() }
        if line.first == Self.colon { return nil }  // a comment
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: Self.colon) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == Self.space { value = value.dropFirst() }
        } else {
            name = line[...]
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "data":
            data.append(contentsOf: value)
            data.append(Self.lf)
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "id" where !value.contains(0):
            idBuffer = String(decoding: value, as: UTF8.self)
        case "retry" where !value.isEmpty && value.allSatisfy({ (0x30...0x39).contains($0) }):
            retryMilliseconds = Int(String(decoding: value, as: UTF8.self)) ?? retryMilliseconds
        default:
            break  // an unknown field is ignored
        }
        return nil
    }

    /// The blank line: the event so far, if it has data; the buffers start again either way.
    private mutating func dispatch() -> EventStreamMessage? {
        lastEventID = idBuffer
        defer {
            data.removeAll(keepingCapacity: true)
            eventType = ""
        }
        guard !data.isEmpty else { return nil }
        let text = String(decoding: data.dropLast(), as: UTF8.self)
        return EventStreamMessage(id: lastEventID, event: eventType.isEmpty ? "message" : eventType, data: text)
    }

    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D
    private static let colon: UInt8 = 0x3A
    private static let space: UInt8 = 0x20
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}
