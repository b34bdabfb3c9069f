import StubHTTP
import StubModel

/// Reading and writing a single mapping as WireMock JSON.
extension StubMapping {
    /// Decodes one WireMock mapping object; warnings (ignored WireMock features, unknown fields) are
    /// dropped — use ``MappingDecoder`` to get them.
    /// - Parameters:
    ///   - json: The mapping object (`{"request": …, "response": …}`).
    ///   - source: Stored in ``source`` and used in error messages.
    ///   - bodyFiles: Where `bodyFileName` is read from; without it `bodyFileName` is an error.
    /// - Throws: ``StubsLoadError`` naming the JSON path.
    public init(json: JSONValue, source: String? = nil, bodyFiles: BodyFiles? = nil) throws(StubsLoadError) {
        (self, _) = try MappingDecoder(bodyFiles: bodyFiles).decodeMapping(json, source: source)
    }

    /// The mapping as WireMock JSON, as the admin API returns it (`GET /__admin/mappings`).
    ///
    /// Decoding the result gives back an equal mapping, except that file bodies only keep their
    /// name (`bodyFileName`) and response header fields of one name are grouped at its first position.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .string(id))]
        if let name { members.append(("name", .string(name))) }
        if priority != StubMapping.defaultPriority { members.append(("priority", JSONValue(priority))) }
        members.append(("request", request.json))
        members.append(("response", response.json))
        members.append(("uuid", .string(id)))
        if let scenarioName { members.append(("scenarioName", .string(scenarioName))) }
        if let requiredScenarioState { members.append(("requiredScenarioState", .string(requiredScenarioState))) }
        if let newScenarioState { members.append(("newScenarioState", .string(newScenarioState))) }
        if let metadata = metadataWithStubserver { members.append(("metadata", metadata)) }
        if persistent { members.append(("persistent", true)) }
        return .object(members)
    }
}

extension StubMapping {
    /// `metadata.stubserver`: use limit, later responses, bandwidth, GraphQL matcher and hang; `nil` when none is set.
    var stubserverMetadata: JSONValue? {
        var members: [(key: String, value: JSONValue)] = []
        if let times { members.append(("times", JSONValue(times))) }
        if !thenResponses.isEmpty { members.append(("then", .array(thenResponses.map(\.json)))) }
        if let bytesPerSecond = response.bytesPerSecond {
            members.append(("bytesPerSecond", JSONValue(bytesPerSecond)))
        }
        if let graphQL = request.graphQL { members.append(("graphql", graphQL.json)) }
        if response.hangs { members.append(("hang", true)) }
        if let stream = response.stream { members += stream.metadataMembers }
        if let webSocket = response.webSocket { members.append(("webSocket", webSocket.json)) }
        return members.isEmpty ? nil : .object(members)
    }

    /// ``metadata`` with `stubserver` set from the typed fields; `nil` when both are empty.
    var metadataWithStubserver: JSONValue? {
        guard let own = stubserverMetadata else { return metadata }
        guard case .object(let members)? = metadata else { return ["stubserver": own] }
        return .object(members.filter { $0.key != "stubserver" } + [("stubserver", own)])
    }
}

extension RequestPattern {
    /// The request pattern as WireMock JSON.
    public var json: JSONValue {
        // WireMock writes these first (its admin API's answer).
        var members: [(key: String, value: JSONValue)] = []
        if let scheme { members.append(("scheme", .string(scheme))) }
        if let host { members.append(("host", host.json)) }
        if let port { members.append(("port", JSONValue(port))) }
        if let clientIp { members.append(("clientIp", clientIp.json)) }
        switch url {
        case .url(let text)?: members.append(("url", .string(text)))
        case .urlPath(let text)?: members.append(("urlPath", .string(text)))
        case .urlPattern(let text)?: members.append(("urlPattern", .string(text)))
        case .urlPathPattern(let text)?: members.append(("urlPathPattern", .string(text)))
        case .urlPathTemplate(let text)?: members.append(("urlPathTemplate", .string(text)))
        case nil: break
        }
        switch method {
        case .any: members.append(("method", "ANY"))
        case .exactly(let name): members.append(("method", .string(name)))
        }
        func named(_ matchers: [NamedMatcher]) -> JSONValue {
            .object(matchers.map { ($0.name, $0.matcher.json) })
        }
        if !pathParameters.isEmpty { members.append(("pathParameters", named(pathParameters))) }
        if !queryParameters.isEmpty { members.append(("queryParameters", named(queryParameters))) }
        if !headers.isEmpty { members.append(("headers", named(headers))) }
        if !cookies.isEmpty { members.append(("cookies", named(cookies))) }
        if !formParameters.isEmpty { members.append(("formParameters", named(formParameters))) }
        if !bodyPatterns.isEmpty { members.append(("bodyPatterns", .array(bodyPatterns.map(\.json)))) }
        if !multipartPatterns.isEmpty {
            members.append(("multipartPatterns", .array(multipartPatterns.map(\.json))))
        }
        if let basicAuthCredentials {
            members.append(
                (
                    "basicAuthCredentials",
                    [
                        "username": .string(basicAuthCredentials.username),
                        "password": .string(basicAuthCredentials.password)
                    ]
                ))
        }
        return .object(members)
    }
}

extension MultiValueMatcher {
    /// The matcher as WireMock JSON.
    public var json: JSONValue {
        switch self {
        case .single(let matcher): matcher.json
        case .hasExactly(let matchers): ["hasExactly": .array(matchers.map(\.json))]
        case .includes(let matchers): ["includes": .array(matchers.map(\.json))]
        }
    }
}

extension ResponseDefinition {
    /// The response definition as WireMock JSON. Header fields sharing a name become one member with
    /// an array value, at the position of the first.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("status", JSONValue(status))]
        if let statusMessage { members.append(("statusMessage", .string(statusMessage))) }
        if !headers.isEmpty {
            let grouped = headers.valuesByName(\.name, \.value)
            members.append(
                (
                    "headers",
                    .object(
                        grouped.map { group in
                            (
                                group.name,
                                group.values.count == 1
                                    ? .string(group.values[0]) : .array(group.values.map(JSONValue.string))
                            )
                        })
                ))
        }
        switch body {
        case .none: break
        case .text(let text): members.append(("body", .string(text)))
        case .json(let value): members.append(("jsonBody", value))
        case .bytes(let bytes): members.append(("base64Body", .string(Base64.encode(bytes))))
        case .file(let name, _): members.append(("bodyFileName", .string(name)))
        }
        if let fixedDelayMilliseconds { members.append(("fixedDelayMilliseconds", JSONValue(fixedDelayMilliseconds))) }
        if let delayDistribution { members.append(("delayDistribution", delayDistribution.json)) }
        if let chunkedDribbleDelay { members.append(("chunkedDribbleDelay", chunkedDribbleDelay.json)) }
        if let fault { members.append(("fault", .string(fault.rawValue))) }
        if !transformers.isEmpty { members.append(("transformers", .array(transformers.map(JSONValue.string)))) }
        if let proxy { members += proxy.jsonMembers }
        return .object(members)
    }
}

extension GraphQLMatcher {
    /// The matcher as stubserver writes it in `metadata.stubserver.graphql`.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        switch query {
        case .document(let text)?: members.append(("query", .string(text)))
        case .normalized(let matcher)?: members.append(("query", matcher.json))
        case nil: break
        }
        switch operationName {
        case .equalTo(let text, caseInsensitive: false)?: members.append(("operationName", .string(text)))
        case let matcher?: members.append(("operationName", matcher.json))
        case nil: break
        }
        if let variables { members.append(("variables", variables.json)) }
        if let persistedQueryHash { members.append(("persistedQueryHash", .string(persistedQueryHash))) }
        return .object(members)
    }
}
