import GitHubUserFeature
import Testing

/// The `text/event-stream` parser, pure: whole streams, and the same streams fed one byte at a time.
@Suite
struct EventStreamParserTests {
    /// A stream with every case the parser handles: a BOM, LF, CRLF and CR line ends, a comment, two `data:`
    /// lines, `retry:`, an id carried to a later event, a data-less event (not dispatched) and an empty `data`.
    static let stream = Array(
        ("\u{FEFF}: hello\n"
            + "event: star\nid: 1\nretry: 250\ndata: {\"a\": 1}\n\n"
            + "data: first line\r\ndata:second line\r\n\r\n"
            + "id: 7\revent: push\rdata\r\r"
            + "event: ignored\nid: 8\n\n"
            + "bogus: field\ndata: after\n\n"
            + "data: never dispatched\n").utf8)

    static let expected = [
        EventStreamMessage(id: "1", event: "star", data: "{\"a\": 1}"),
        EventStreamMessage(id: "1", data: "first line\nsecond line"),
        EventStreamMessage(id: "7", event: "push", data: ""),
        EventStreamMessage(id: "8", data: "after")
    ]

    @Test("A whole stream: events, ids, retry, comments and line ends")
    func whole() throws {
        var parser = EventStreamParser()
        #expect(try parser.feed(Self.stream) == Self.expected)
        #expect(parser.lastEventID == "8")
        #expect(parser.retryMilliseconds == 250)
    }

    @Test("The same stream byte by byte gives the same events, each when its blank line arrives")
    func byteByByte() throws {
        var parser = EventStreamParser()
        var events: [EventStreamMessage] = []
        for byte in Self.stream {
            events += try parser.feed([byte])
        }
        #expect(events == Self.expected)
        #expect(parser.lastEventID == "8")
    }

    @Test("A CRLF split between two chunks ends one line, not two")
    func crlfAcrossChunks() throws {
        var parser = EventStreamParser()
        #expect(try parser.feed(Array("data: a\r".utf8)).isEmpty)
        #expect(try parser.feed(Array("\ndata: b\r\n\r".utf8)) == [EventStreamMessage(data: "a\nb")])
        #expect(try parser.feed(Array("\n".utf8)).isEmpty)
    }

    @Test("A reconnection's parser keeps the last event ID until the server sends another")
    func keepsLastEventID() throws {
        var parser = EventStreamParser(lastEventID: "3")
        #expect(try parser.feed(Array("data: x\n\n".utf8)) == [EventStreamMessage(id: "3", data: "x")])
        #expect(try parser.feed(Array("id\ndata: y\n\n".utf8)) == [EventStreamMessage(id: "", data: "y")])
    }

    @Test("A retry that is not all digits is ignored")
    func badRetry() throws {
        var parser = EventStreamParser()
        _ = try parser.feed(Array("retry: 10x\nretry: -5\n\n".utf8))
        #expect(parser.retryMilliseconds == nil)
    }

    @Test("An event past the bound stops the parser with an error that says so")
    func bounded() {
        var parser = EventStreamParser(maxEventBytes: 16)
        #expect(throws: EventStreamError.eventTooLarge(limit: 16)) {
            _ = try parser.feed(Array("data: 0123456789\ndata: 0123456789\n".utf8))
        }
        #expect(EventStreamError.eventTooLarge(limit: 16).description.contains("16 bytes"))
    }
}
