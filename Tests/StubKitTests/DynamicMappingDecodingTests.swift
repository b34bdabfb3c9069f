import Testing

@testable import StubKit

/// Delays, faults, scenarios and `metadata.stubserver` in mapping JSON: decoding, errors, round trips.
@Suite("Dynamic mapping fields")
struct DynamicMappingDecodingTests {
    private func decode(_ document: String) throws -> MappingDecoder.Result {
        try MappingDecoder().decodeDocument(try JSONParser.parse(document), file: "Stubs/mappings/users.json")
    }

    private func decodeError(_ document: String) -> String? {
        do {
            _ = try decode(document)
            return nil
        } catch {
            return "\(error)"
        }
    }

    static let responseForms: [(String, ResponseDefinition)] = {
        func with(_ change: (inout ResponseDefinition) -> Void) -> ResponseDefinition {
            var response = ResponseDefinition()
            change(&response)
            return response
        }
        return [
            (
                #"{"delayDistribution": {"type": "uniform", "lower": 200, "upper": 800}}"#,
                with { $0.delayDistribution = .uniform(lower: 200, upper: 800) }
            ),
            (
                #"{"delayDistribution": {"type": "lognormal", "median": 90, "sigma": 0.1}}"#,
                with { $0.delayDistribution = .lognormal(median: 90, sigma: 0.1) }
            ),
            (
                #"{"delayDistribution": {"type": "fixed", "milliseconds": 5}}"#,
                with { $0.delayDistribution = .fixed(milliseconds: 5) }
            ),
            (
                #"{"chunkedDribbleDelay": {"numberOfChunks": 5, "totalDuration": 1000}}"#,
                with { $0.chunkedDribbleDelay = ChunkedDribbleDelay(numberOfChunks: 5, totalDuration: 1000) }
            ),
            (#"{"fault": "CONNECTION_RESET_BY_PEER"}"#, with { $0.fault = .connectionReset }),
            (#"{"fault": "EMPTY_RESPONSE"}"#, with { $0.fault = .emptyResponse }),
            (#"{"fault": "MALFORMED_RESPONSE_CHUNK"}"#, with { $0.fault = .malformedResponseChunk }),
            (#"{"fault": "RANDOM_DATA_THEN_CLOSE"}"#, with { $0.fault = .randomDataThenClose })
        ]
    }()

    @Test("Decodes delayDistribution, chunkedDribbleDelay and fault", arguments: responseForms)
    func decodesResponse(_ response: String, _ expected: ResponseDefinition) throws {
        let result = try decode(#"{"request": {}, "response": \#(response)}"#)
        #expect(result.mappings.first?.response == expected)
        #expect(result.warnings.isEmpty)
    }

    static let errors: [(String, String)] = [
        (
            #"{"delayDistribution": {"lower": 1, "upper": 2}}"#,
            "response.delayDistribution: missing 'type' (uniform, lognormal or fixed)"
        ),
        (
            #"{"delayDistribution": {"type": "gaussian"}}"#,
            #"response.delayDistribution.type: unknown distribution "gaussian"; expected uniform, lognormal or fixed"#
        ),
        (
            #"{"delayDistribution": {"type": "uniform", "lower": 9, "upper": 2}}"#,
            "response.delayDistribution: 'lower' (9) is greater than 'upper' (2)"
        ),
        (#"{"delayDistribution": {"type": "uniform", "lower": 1}}"#, "response.delayDistribution: missing 'upper'"),
        (
            #"{"delayDistribution": {"type": "lognormal", "median": -1, "sigma": 1}}"#,
            "response.delayDistribution.median: expected a number 0 or more, found -1"
        ),
        (
            #"{"delayDistribution": {"type": "uniform", "lowr": 1, "upper": 2}}"#,
            "response.delayDistribution.lowr: unknown field; did you mean 'lower'?"
        ),
        (
            #"{"chunkedDribbleDelay": {"numberOfChunks": 0, "totalDuration": 10}}"#,
            "response.chunkedDribbleDelay.numberOfChunks: expected an integer from 1 to 1000000, found 0"
        ),
        (#"{"chunkedDribbleDelay": {"numberOfChunks": 2}}"#, "response.chunkedDribbleDelay: missing 'totalDuration'"),
        (
            #"{"fault": "TIMEOUT"}"#,
            #"response.fault: unknown fault "TIMEOUT"; expected one of CONNECTION_RESET_BY_PEER, EMPTY_RESPONSE, MALFORMED_RESPONSE_CHUNK, RANDOM_DATA_THEN_CLOSE"#
        )
    ]

    @Test("Names the field at fault", arguments: errors)
    func reportsErrors(_ response: String, _ expected: String) {
        #expect(decodeError(#"{"request": {}, "response": \#(response)}"#) == "Stubs/mappings/users.json: " + expected)
    }

    @Test("Decodes scenarios and metadata.stubserver; other metadata is ignored")
    func decodesScenarioAndMetadata() throws {
        let result = try decode(
            #"""
            {"scenarioName": "Todo", "requiredScenarioState": "Started", "newScenarioState": "Added",
             "request": {"url": "/t"}, "response": {"status": 201},
             "metadata": {"team": "ios", "stubserver": {"times": 3, "then": [{"status": 500}, {"body": "x"}], "bytesPerSecond": 1000, "hang": true}}}
            """#)
        let mapping = try #require(result.mappings.first)
        #expect(result.warnings.isEmpty)
        #expect(mapping.scenarioName == "Todo")
        #expect(mapping.requiredScenarioState == "Started")
        #expect(mapping.newScenarioState == "Added")
        #expect(mapping.times == 3)
        #expect(mapping.thenResponses.map(\.status) == [500, 200])
        #expect(mapping.response.bytesPerSecond == 1000)
        #expect(mapping.thenResponses.allSatisfy { $0.bytesPerSecond == 1000 })
        #expect(mapping.response.hangs && mapping.thenResponses.allSatisfy(\.hangs))
        let answering = try decode(#"{"request": {}, "response": {}, "metadata": {"stubserver": {"hang": false}}}"#)
        #expect(answering.mappings.first?.response.hangs == false)
    }

    static let metadataErrors: [(String, String)] = [
        (
            #""metadata": {"stubserver": {"times": 0}}"#,
            "metadata.stubserver.times: expected an integer 1 or more, found 0"
        ),
        (#""metadata": {"stubserver": {"tims": 1}}"#, "metadata.stubserver.tims: unknown field; did you mean 'times'?"),
        (
            #""metadata": {"stubserver": {"then": {}}}"#,
            "metadata.stubserver.then: expected an array of response objects, found an object"
        ),
        (
            #""metadata": {"stubserver": {"then": [{"status": "x"}]}}"#,
            #"metadata.stubserver.then[0].status: expected an integer, found "x""#
        ),
        (
            #""metadata": {"stubserver": {"bytesPerSecond": 0}}"#,
            "metadata.stubserver.bytesPerSecond: expected an integer 1 or more, found 0"
        ),
        (
            #""metadata": {"stubserver": {"hang": "yes"}}"#,
            #"metadata.stubserver.hang: expected true or false, found "yes""#
        ),
        (#""metadata": []"#, "metadata: expected an object, found an array"),
        (#""newScenarioState": "x""#, "newScenarioState: needs 'scenarioName'"),
        (#""scenarioName": 1"#, "scenarioName: expected a string, found 1")
    ]

    @Test("Names the metadata or scenario field at fault", arguments: metadataErrors)
    func reportsMetadataErrors(_ field: String, _ expected: String) {
        #expect(decodeError(#"{\#(field), "request": {}, "response": {}}"#) == "Stubs/mappings/users.json: " + expected)
    }

    @Test("Writes every dynamic field back as JSON that decodes to an equal mapping")
    func roundTrips() throws {
        var mapping = StubMapping(
            id: "m", request: RequestPattern(),
            response: .text("a")
                .withDelay(uniform: 1...5).withChunkedDribble(chunks: 2, totalMilliseconds: 10).withBandwidth(
                    bytesPerSecond: 99))
        mapping.scenarioName = "S"
        mapping.requiredScenarioState = "Started"
        mapping.newScenarioState = "Next"
        mapping.times = 2
        mapping.thenResponses = [ResponseDefinition(status: 503).withBandwidth(bytesPerSecond: 99)]
        var hanging = StubMapping(id: "h", request: RequestPattern(), response: .json(["a": 1]).hanging())
        hanging.source = nil
        var faulty = StubMapping(
            id: "f", request: RequestPattern(),
            response: .fault(.randomDataThenClose).withDelay(lognormalMedian: 9, sigma: 0.5))
        faulty.source = nil
        for original in [mapping, faulty, hanging] {
            let decoded = try StubMapping(json: try JSONParser.parse(original.json.serialized()))
            #expect(decoded == original)
        }
        let text = mapping.json.serialized()
        #expect(text.contains(#""metadata":{"stubserver":{"times":2,"then":[{"status":503}],"bytesPerSecond":99}}"#))
    }
}
