import Testing

@testable import StubKit

/// `metadata.stubserver.webSocket`: the script of a WebSocket stub, its errors naming the field, round trips.
@Suite("WebSocket stub fields")
struct WebSocketStubDecodingTests {
    private func decode(_ document: String) throws -> StubMapping {
        let result = try MappingDecoder().decodeDocument(
            try JSONParser.parse(document), file: "Stubs/mappings/chat.json")
        return try #require(result.mappings.first)
    }

    private func decodeError(_ webSocket: String, scenario: String = "") -> String? {
        do {
            _ = try decode(
                #"{\#(scenario)"request": {}, "response": {"status": 101}, "metadata": {"stubserver": {"webSocket": \#(webSocket)}}}"#
            )
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("The issue's chat stub decodes to its script, with no warning")
    func issueExample() throws {
        let result = try MappingDecoder().decodeDocument(
            try JSONParser.parse(
                #"{"request": {}, "response": {"status": 101}, "metadata": {"stubserver": {"webSocket": {}}}}"#),
            file: "Stubs/mappings/chat.json")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let mapping = try decode(
            #"""
            {"request": {"method": "GET", "urlPath": "/chat"},
             "response": {"status": 101},
             "metadata": {"stubserver": {"webSocket": {
               "onConnect": [{"text": "welcome"}],
               "onMessage": [{"matches": {"equalTo": "ping"}, "send": [{"text": "pong"}]}]}}}}
            """#)
        #expect(mapping.response.status == 101)
        #expect(
            mapping.response.webSocket
                == WebSocketScript(
                    onConnect: [.text("welcome")],
                    onMessage: [WebSocketReply(.equalTo("ping", caseInsensitive: false), send: [.text("pong")])]))
    }

    @Test("Every field: JSON and binary messages, delays, JSON matchers, closes and scenario moves")
    func everyField() throws {
        let mapping = try decode(
            #"""
            {"scenarioName": "chat", "request": {"urlPath": "/chat"}, "response": {"status": 101},
             "metadata": {"stubserver": {"webSocket": {
               "onConnect": [{"json": {"type": "hello"}, "delayMilliseconds": 5}, {"base64": "AAEC"}],
               "onMessage": [{"matches": {"matchesJsonPath": "$.bye"}, "send": [],
                              "close": {"code": 4000, "reason": "bye", "delayMilliseconds": 10},
                              "newScenarioState": "closed"}],
               "close": {"code": 1001}}}}}
            """#)
        let script = try #require(mapping.response.webSocket)
        #expect(script.onConnect == [.json(["type": "hello"], after: .milliseconds(5)), .binary([0, 1, 2])])
        #expect(
            script.onMessage == [
                WebSocketReply(
                    .matchesJsonPath("$.bye", nil),
                    close: WebSocketClosing(code: 4000, reason: "bye", after: .milliseconds(10)),
                    newScenarioState: "closed")
            ])
        #expect(script.closeAfterConnect == WebSocketClosing(code: 1001))
        var plain = mapping
        plain.source = nil
        #expect(try StubMapping(json: try JSONParser.parse(plain.json.serialized())) == plain)
    }

    static let errors: [(String, String)] = [
        (#"{"onConect": []}"#, "metadata.stubserver.webSocket.onConect: unknown field; did you mean 'onConnect'?"),
        (
            #"{"onConnect": {}}"#,
            "metadata.stubserver.webSocket.onConnect: expected an array of message objects, found an object"
        ),
        (
            #"{"onConnect": [{"text": "a", "json": 1}]}"#,
            "metadata.stubserver.webSocket.onConnect[0]: a message needs exactly one of 'text', 'json' and 'base64'"
        ),
        (#"{"onConnect": [{"base64": "%%"}]}"#, "metadata.stubserver.webSocket.onConnect[0].base64: invalid base64"),
        (
            #"{"onMessage": [{"send": []}]}"#,
            "metadata.stubserver.webSocket.onMessage[0]: missing 'matches': a reply needs a matcher for the messages it answers"
        ),
        (
            #"{"onMessage": [{"matches": {"equalTo": "x"}, "newScenarioState": "s"}]}"#,
            "metadata.stubserver.webSocket.onMessage[0].newScenarioState: needs the stub's 'scenarioName'"
        ),
        (
            #"{"close": {"code": 1005}}"#,
            "metadata.stubserver.webSocket.close: close code 1005 cannot be sent: use 1000–1003, 1007–1014 or 3000–4999"
        ),
        (
            #"{"close": {"code": 999}}"#,
            "metadata.stubserver.webSocket.close.code: expected an integer from 1000 to 4999, found 999"
        )
    ]

    @Test("Bad WebSocket fields name the file and the field", arguments: errors)
    func reportsErrors(_ webSocket: String, _ expected: String) {
        let error = decodeError(webSocket)
        #expect(error?.hasPrefix("Stubs/mappings/chat.json: " + expected) == true, "\(error ?? "no error")")
    }

    @Test("A reply matcher stubserver does not know is refused, and webSocket goes without events")
    func neverFailsOpen() {
        #expect(decodeError(#"{"onMessage": [{"matches": {"equalToSomething": "x"}}]}"#) != nil)
        let both = try? decode(
            #"{"request": {}, "response": {}, "metadata": {"stubserver": {"events": [{"data": "x"}], "webSocket": {}}}}"#
        )
        #expect(both == nil)
    }
}
