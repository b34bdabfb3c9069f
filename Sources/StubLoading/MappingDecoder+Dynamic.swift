import StubModel

/// Decoding of what makes a response vary: delays, faults, scenarios, and stubserver's own
/// `metadata.stubserver` (use limits, response sequences, bandwidth), which WireMock ignores.
extension MappingDecoder.Run {
    static let stubserverMetadataFields = [
        "times", "then", "bytesPerSecond", "graphql", "hang", "events", "lines", "streamEnd", "webSocket"
    ]

    /// `delayDistribution`, `chunkedDribbleDelay` and `fault` of a `response` object.
    mutating func decodeDelaysAndFault(
        _ json: JSONValue, into response: inout ResponseDefinition,
        at path: MappingPath
    ) throws(StubsLoadError) {
        if let value = json["delayDistribution"] {
            response.delayDistribution = try decodeDistribution(value, at: path.key("delayDistribution"))
        }
        if let value = json["chunkedDribbleDelay"] {
            let dribblePath = path.key("chunkedDribbleDelay")
            let members = try object(value, at: dribblePath)
            try checkFields(members, at: dribblePath, supported: ["numberOfChunks", "totalDuration"])
            guard let chunks = value["numberOfChunks"] else { throw failure(dribblePath, "missing 'numberOfChunks'") }
            guard let total = value["totalDuration"] else { throw failure(dribblePath, "missing 'totalDuration'") }
            response.chunkedDribbleDelay = ChunkedDribbleDelay(
                numberOfChunks: try integer(chunks, at: dribblePath.key("numberOfChunks"), in: 1...1_000_000),
                totalDuration: try integer(total, at: dribblePath.key("totalDuration"), in: 0...Int(Int32.max)))
        }
        if let value = json["fault"] {
            let text = try string(value, at: path.key("fault"))
            guard let fault = ResponseFault(rawValue: text) else {
                let names = ResponseFault.allCases.map(\.rawValue).joined(separator: ", ")
                throw failure(
                    path.key("fault"), "unknown fault \(JSONValue.string(text).serialized()); expected one of \(names)")
            }
            response.fault = fault
        }
    }

    private mutating func decodeDistribution(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> DelayDistribution
    {
        let members = try object(json, at: path)
        guard let type = json["type"] else { throw failure(path, "missing 'type' (uniform, lognormal or fixed)") }
        func milliseconds(_ key: String) throws(StubsLoadError) -> Int {
            guard let value = json[key] else { throw failure(path, "missing '\(key)'") }
            return try integer(value, at: path.key(key), in: 0...Int(Int32.max))
        }
        func number(_ key: String) throws(StubsLoadError) -> Double {
            guard let value = json[key] else { throw failure(path, "missing '\(key)'") }
            guard let number = value.doubleValue, number.isFinite, number >= 0 else {
                throw failure(path.key(key), "expected a number 0 or more, found \(value.foundDescription)")
            }
            return number
        }
        switch try string(type, at: path.key("type")) {
        case "uniform":
            try checkFields(members, at: path, supported: ["type", "lower", "upper"])
            let lower = try milliseconds("lower"), upper = try milliseconds("upper")
            guard lower <= upper else { throw failure(path, "'lower' (\(lower)) is greater than 'upper' (\(upper))") }
            return .uniform(lower: lower, upper: upper)
        case "lognormal":
            try checkFields(members, at: path, supported: ["type", "median", "sigma"])
            return .lognormal(median: try number("median"), sigma: try number("sigma"))
        case "fixed":
            try checkFields(members, at: path, supported: ["type", "milliseconds"])
            return .fixed(milliseconds: try milliseconds("milliseconds"))
        case let other:
            throw failure(
                path.key("type"),
                "unknown distribution \(JSONValue.string(other).serialized()); expected uniform, lognormal or fixed")
        }
    }

    /// `scenarioName`, `requiredScenarioState`, `newScenarioState`.
    func decodeScenario(_ json: JSONValue, into mapping: inout StubMapping, at path: MappingPath) throws(StubsLoadError)
    {
        func text(_ key: String) throws(StubsLoadError) -> String? {
            try json[key].map { (value) throws(StubsLoadError) in try string(value, at: path.key(key)) }
        }
        mapping.scenarioName = try text("scenarioName")
        mapping.requiredScenarioState = try text("requiredScenarioState")
        mapping.newScenarioState = try text("newScenarioState")
        if mapping.scenarioName == nil, mapping.requiredScenarioState != nil || mapping.newScenarioState != nil {
            let key = mapping.requiredScenarioState != nil ? "requiredScenarioState" : "newScenarioState"
            throw failure(path.key(key), "needs 'scenarioName'")
        }
    }

    /// `metadata.stubserver`, read into typed fields and taken out of ``StubMapping/metadata`` (which keeps
    /// the rest as given; ``StubMapping/json`` puts it back).
    mutating func decodeMetadata(_ json: JSONValue?, into mapping: inout StubMapping, at path: MappingPath)
        throws(StubsLoadError)
    {
        guard let json else { return }
        let members = try object(json, at: path)
        guard let own = json["stubserver"] else { return }
        let others = members.filter { $0.key != "stubserver" }
        mapping.metadata = others.isEmpty ? nil : .object(others)
        let ownPath = path.key("stubserver")
        try checkFields(try object(own, at: ownPath), at: ownPath, supported: Self.stubserverMetadataFields)
        if let times = own["times"] { mapping.times = try integer(times, at: ownPath.key("times"), in: 1...Int.max) }
        if let then = own["then"] {
            mapping.thenResponses = []
            for element in try elements(then, at: ownPath.key("then"), of: "response objects") {
                mapping.thenResponses.append(try decodeResponse(element.value, at: element.path))
            }
        }
        if let graphQL = own["graphql"] {
            let graphQLPath = ownPath.key("graphql")
            guard mapping.request.graphQL == nil else {
                throw failure(
                    graphQLPath, "the request also has a graphql-body-matcher 'customMatcher'; give one of them")
            }
            mapping.request.graphQL = try decodeGraphQL(graphQL, at: graphQLPath)
            // A matcher in it that stubserver does not implement (lenient loading) makes the stub match nothing.
            mapping.request.unsupportedMatchers = unsupportedMatchers
        }
        mapping.response.stream = try decodeStream(own, at: ownPath)
        if let webSocket = own["webSocket"] {
            guard mapping.response.stream == nil else {
                throw failure(ownPath, "give 'webSocket' or 'events'/'lines', not both")
            }
            mapping.response.webSocket = try decodeWebSocket(webSocket, for: mapping, at: ownPath.key("webSocket"))
        }
        if let hang = own["hang"], try bool(hang, at: ownPath.key("hang")) {
            mapping.response.hangs = true
            for index in mapping.thenResponses.indices { mapping.thenResponses[index].hangs = true }
        }
        if let rate = own["bytesPerSecond"] {
            let bytesPerSecond = try integer(rate, at: ownPath.key("bytesPerSecond"), in: 1...Int.max)
            mapping.response.bytesPerSecond = bytesPerSecond
            for index in mapping.thenResponses.indices { mapping.thenResponses[index].bytesPerSecond = bytesPerSecond }
        }
    }
}
