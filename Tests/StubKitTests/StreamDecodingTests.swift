import Testing

@testable import StubKit

/// `metadata.stubserver.events`, `lines` and `streamEnd`: decoding, errors naming the field, the wire form
/// of an event, and round trips through mapping JSON.
@Suite("Streamed response fields")
struct StreamDecodingTests {
    private func decode(_ document: String) throws -> StubMapping {
        let result = try MappingDecoder().decodeDocument(
            try JSONParser.parse(document), file: "Stubs/mappings/events.json")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        return try #require(result.mappings.first)
    }

    private func decodeError(_ own: String) -> String? {
        do {
            _ = try decode(#"{"request": {}, "response": {}, "metadata": {"stubserver": \#(own)}}"#)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("The issue's SSE stub decodes to its events, each with its delay")
    func issueExample() throws {
        let mapping = try decode(
            #"""
            {"request": {"method": "GET", "urlPath": "/events"},
             "response": {"status": 200, "headers": {"Content-Type": "text/event-stream"}},
             "metadata": {"stubserver": {"events": [{"data": "one", "delayMilliseconds": 50},
                                                     {"event": "done", "id": "2", "data": "two"}]}}}
            """#)
        let events = [
            ServerSentEvent(data: "one", after: .milliseconds(50)), ServerSentEvent(data: "two", event: "done", id: "2")
        ]
        #expect(mapping.response.stream == ResponseStream(.events(events)))
    }

    @Test("Lines as JSON or text, a JSON event payload as compact JSON, and each end")
    func forms() throws {
        let lines = try decode(
            #"""
            {"request": {}, "response": {}, "metadata": {"stubserver": {"lines": [{"json": {"a": [1, 2]}},
             {"text": "plain", "delayMilliseconds": 5}], "streamEnd": "open"}}}
            """#)
        #expect(
            lines.response.stream
                == ResponseStream(
                    .lines([StreamedLine(#"{"a":[1,2]}"#), StreamedLine("plain", after: .milliseconds(5))]), end: .open)
        )
        let json = try decode(
            #"""
            {"request": {}, "response": {}, "metadata": {"stubserver": {"events": [{"data": {"n": 1}, "retry": 10,
             "comment": "c"}], "streamEnd": "fault"}}}
            """#)
        #expect(
            json.response.stream
                == ResponseStream(.events([ServerSentEvent(data: #"{"n":1}"#, retry: 10, comment: "c")]), end: .fault))
    }

    static let errors: [(String, String)] = [
        (#"{"events": {}}"#, "metadata.stubserver.events: expected an array of event objects, found an object"),
        (#"{"events": [{"dta": "x"}]}"#, "metadata.stubserver.events[0].dta: unknown field; did you mean 'data'?"),
        (
            #"{"events": [{}]}"#,
            "metadata.stubserver.events[0]: an event needs at least one of 'data', 'event', 'id', 'retry' or 'comment'"
        ),
        (#"{"events": [{"id": "a\nb"}]}"#, "metadata.stubserver.events[0].id: it must be one line"),
        (#"{"events": [{"event": "a\rb"}]}"#, "metadata.stubserver.events[0].event: it must be one line"),
        (
            #"{"events": [{"data": "x", "delayMilliseconds": -1}]}"#,
            "metadata.stubserver.events[0].delayMilliseconds: expected an integer from 0 to 2147483647, found -1"
        ),
        (#"{"events": [], "lines": []}"#, "metadata.stubserver: give 'events' or 'lines', not both"),
        (
            #"{"lines": [{"json": 1, "text": "x"}]}"#,
            "metadata.stubserver.lines[0]: a line needs exactly one of 'json' and 'text'"
        ),
        (
            #"{"lines": [{"text": "a\nb"}]}"#,
            "metadata.stubserver.lines[0].text: a line must not contain a line break (give several lines)"
        ),
        (
            #"{"events": [], "streamEnd": "never"}"#,
            #"metadata.stubserver.streamEnd: unknown end "never"; expected one of finish, open, fault"#
        ),
        (#"{"streamEnd": "open"}"#, "metadata.stubserver.streamEnd: 'streamEnd' needs 'events' or 'lines'")
    ]

    @Test("Bad stream fields name the file and the field", arguments: errors)
    func reportsErrors(_ own: String, _ expected: String) {
        #expect(decodeError(own) == "Stubs/mappings/events.json: " + expected)
    }

    @Test("An event on the wire: comment, event, id, retry, then one data line per line of its data")
    func wireForm() {
        let event = ServerSentEvent(data: "a\nb\r\n\rc", event: "e", id: "7", retry: 300, comment: "hi\nthere")
        #expect(
            String(decoding: event.wireBytes, as: UTF8.self)
                == ": hi\n: there\nevent: e\nid: 7\nretry: 300\ndata: a\ndata: b\ndata\ndata: c\n\n")
        #expect(String(decoding: ServerSentEvent(id: "3").wireBytes, as: UTF8.self) == "id: 3\n\n")
    }

    @Test("Streams written back as JSON decode to an equal mapping")
    func roundTrips() throws {
        for response in [
            ResponseDefinition.events(
                [ServerSentEvent(data: "x", event: "e", id: "1", retry: 5, comment: "c", after: .milliseconds(20))],
                end: .open),
            .lines([.json(["a": 1]), StreamedLine("t", after: .milliseconds(3))], end: .fault)
        ] {
            var mapping = StubMapping(id: "s", request: RequestPattern(), response: response)
            mapping.source = nil
            #expect(try StubMapping(json: try JSONParser.parse(mapping.json.serialized())) == mapping)
        }
    }
}
