import StubModel

/// Decoding of `multipartPatterns`.
extension MappingDecoder.Run {
    static let multipartFields = ["matchingType", "headers", "bodyPatterns", "fileName"]

    /// `[{"matchingType": "ANY", "headers": {…}, "bodyPatterns": […]}, …]`.
    mutating func decodeMultipartPatterns(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> [MultipartPattern]
    {
        var patterns: [MultipartPattern] = []
        for element in try elements(json, at: path, of: "multipart patterns") {
            patterns.append(try decodeMultipartPattern(element.value, at: element.path))
        }
        return patterns
    }

    private mutating func decodeMultipartPattern(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> MultipartPattern
    {
        let members = try object(json, at: path)
        // WireMock keeps `name` but never matches on it: a part's name is in its Content-Disposition header.
        if json["name"] != nil { warn(.noEffect, "name", at: path) }
        try checkFields(members, at: path, supported: Self.multipartFields, silent: ["name"])
        var pattern = MultipartPattern()
        if let type = json["matchingType"] {
            let text = try string(type, at: path.key("matchingType"))
            guard let matchingType = MultipartPattern.MatchingType(rawValue: text) else {
                throw failure(path.key("matchingType"), "expected \"ANY\" or \"ALL\", found \(type.foundDescription)")
            }
            pattern.matchingType = matchingType
        }
        if let headers = json["headers"] {
            pattern.headers = try decodeNamedMatchers(headers, at: path.key("headers"), multiValue: true)
        }
        if let body = json["bodyPatterns"] {
            for element in try elements(body, at: path.key("bodyPatterns"), of: "matchers") {
                if let matcher = try decodeMatcher(element.value, at: element.path) {
                    pattern.bodyPatterns.append(matcher)
                }
            }
        }
        if let fileName = json["fileName"] {
            pattern.fileName = try string(fileName, at: path.key("fileName"))
        }
        return pattern
    }
}

extension MultipartPattern {
    /// The pattern as WireMock JSON.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [("matchingType", .string(matchingType.rawValue))]
        if !headers.isEmpty { members.append(("headers", .object(headers.map { ($0.name, $0.matcher.json) }))) }
        if !bodyPatterns.isEmpty { members.append(("bodyPatterns", .array(bodyPatterns.map(\.json)))) }
        if let fileName { members.append(("fileName", .string(fileName))) }
        return .object(members)
    }
}
