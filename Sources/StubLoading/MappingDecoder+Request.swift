import StubMatching
import StubModel

/// Decoding of the `request` object.
extension MappingDecoder.Run {
    static let urlFields = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"]
    static let requestFields =
        ["method"] + urlFields + [
            "queryParameters", "headers", "cookies", "bodyPatterns", "basicAuthCredentials", "basicAuth",
            "multipartPatterns", "pathParameters", "scheme", "host", "port", "clientIp", "formParameters"
        ]
    static let requestWireMockOnly: Set<String> = ["customMatcher"]

    mutating func decodeRequest(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> RequestPattern {
        let members = try object(json, at: path)
        unsupportedMatchers = []
        // A field that constrains the request and is not understood makes the stub match nothing, never more.
        for (key, value) in members where !Self.requestFields.contains(key) {
            if key == "customMatcher", Self.isGraphQLCustomMatcher(value) { continue }
            if !Self.requestWireMockOnly.contains(key),
                let suggestion = FieldSuggestion.closest(to: key, among: Self.requestFields)
            {
                throw failure(path.key(key), "unknown field; did you mean '\(suggestion)'?")
            }
            try unsupported(key, at: path.key(key), in: path, alternatives: Self.requestFields)
        }
        var pattern = RequestPattern()
        if let method = json["method"] {
            pattern.method = try decodeMethod(method, at: path.key("method"))
        }
        pattern.url = try decodeURL(members, at: path)
        if let query = json["queryParameters"] {
            pattern.queryParameters = try decodeNamedMatchers(query, at: path.key("queryParameters"), multiValue: true)
        }
        if let headers = json["headers"] {
            pattern.headers = try decodeNamedMatchers(headers, at: path.key("headers"), multiValue: true)
        }
        if let cookies = json["cookies"] {
            pattern.cookies = try decodeNamedMatchers(cookies, at: path.key("cookies"), multiValue: false)
        }
        if let body = json["bodyPatterns"] {
            for element in try elements(body, at: path.key("bodyPatterns"), of: "matchers") {
                if let matcher = try decodeBodyPattern(element.value, at: element.path) {
                    pattern.bodyPatterns.append(matcher)
                }
            }
        }
        // WireMock reads `basicAuth` (its creator's name) and `basicAuthCredentials` (its getter's) alike.
        for key in ["basicAuthCredentials", "basicAuth"] {
            guard let credentials = json[key] else { continue }
            guard pattern.basicAuthCredentials == nil else {
                throw failure(path.key(key), "both 'basicAuthCredentials' and 'basicAuth' are set; give one of them")
            }
            pattern.basicAuthCredentials = try decodeCredentials(credentials, at: path.key(key))
        }
        if let parameters = json["pathParameters"] {
            pattern.pathParameters = try decodePathParameters(parameters, for: pattern.url, at: path)
        }
        if let multipart = json["multipartPatterns"] {
            pattern.multipartPatterns = try decodeMultipartPatterns(multipart, at: path.key("multipartPatterns"))
        }
        try decodeOrigin(into: &pattern, json, at: path)
        if let custom = json["customMatcher"], Self.isGraphQLCustomMatcher(custom) {
            pattern.graphQL = try decodeGraphQLCustomMatcher(custom, at: path.key("customMatcher"))
        }
        pattern.unsupportedMatchers = unsupportedMatchers
        return pattern
    }

    private func decodeMethod(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> MethodMatcher {
        let method = try string(json, at: path)
        if method == "ANY" { return .any }
        guard !method.isEmpty, method.utf8.allSatisfy(Self.isTokenByte) else {
            throw failure(path, "expected an HTTP method such as \"GET\" or \"ANY\", found \(json.foundDescription)")
        }
        return .exactly(method)
    }

    private func decodeURL(_ members: [(key: String, value: JSONValue)], at path: MappingPath) throws(StubsLoadError)
        -> URLMatcher?
    {
        let present = members.filter { Self.urlFields.contains($0.key) }
        guard let (key, value) = present.first else { return nil }
        if present.count > 1 {
            throw failure(
                path,
                "both '\(key)' and '\(present[1].key)' are set; use only one of \(Self.urlFields.joined(separator: ", "))"
            )
        }
        let fieldPath = path.key(key)
        let text = try string(value, at: fieldPath)
        switch key {
        case "url": return .url(text)
        case "urlPath": return .urlPath(text)
        case "urlPattern":
            try validateRegex(text, at: fieldPath)
            return .urlPattern(text)
        case "urlPathPattern":
            try validateRegex(text, at: fieldPath)
            return .urlPathPattern(text)
        default:
            try validatePathTemplate(text, at: fieldPath)
            return .urlPathTemplate(text)
        }
    }

    /// WireMock 3's `pathParameters`: a matcher per `{name}` of the `urlPathTemplate`. As in WireMock they
    /// have no effect with another URL field (warned); a name the template lacks is an error (its stub
    /// could never match).
    private mutating func decodePathParameters(_ json: JSONValue, for url: URLMatcher?, at path: MappingPath)
        throws(StubsLoadError) -> [NamedMatcher]
    {
        let fieldPath = path.key("pathParameters")
        let matchers = try decodeNamedMatchers(json, at: fieldPath, multiValue: false)
        guard case .urlPathTemplate(let template)? = url else {
            warn(.noEffect, "pathParameters", at: path)
            return []
        }
        let names = PathTemplate(template).names
        for matcher in matchers where !names.contains(matcher.name) {
            let known = names.map { "{\($0)}" }.joined(separator: ", ")
            throw failure(
                fieldPath.key(matcher.name),
                "the urlPathTemplate \(Quoting.quote(template)) has no {\(matcher.name)}"
                    + (known.isEmpty ? "" : "; it has \(known)"))
        }
        return matchers
    }

    /// `{a}` placeholders must be non-empty, unique and not nested.
    private func validatePathTemplate(_ template: String, at path: MappingPath) throws(StubsLoadError) {
        var names: Set<String> = []
        var current: String?
        for character in template {
            switch (character, current) {
            case ("{", nil): current = ""
            case ("{", _): throw failure(path, "invalid path template '\(template)': nested '{'")
            case ("}", nil): throw failure(path, "invalid path template '\(template)': '}' without '{'")
            case ("}", let name?):
                guard !name.isEmpty else { throw failure(path, "invalid path template '\(template)': empty '{}'") }
                guard names.insert(name).inserted else {
                    throw failure(path, "invalid path template '\(template)': '{\(name)}' appears twice")
                }
                current = nil
            case (_, let name?): current = name + String(character)
            default: break
            }
        }
        if current != nil { throw failure(path, "invalid path template '\(template)': '{' without '}'") }
    }

    mutating func decodeNamedMatchers(_ json: JSONValue, at path: MappingPath, multiValue: Bool)
        throws(StubsLoadError) -> [NamedMatcher]
    {
        var result: [NamedMatcher] = []
        for (name, value) in try object(json, at: path) {
            let fieldPath = path.key(name)
            if multiValue {
                if let matcher = try decodeMultiValueMatcher(value, at: fieldPath) {
                    result.append(NamedMatcher(name, matcher))
                }
            } else if let matcher = try decodeMatcher(value, at: fieldPath) {
                result.append(NamedMatcher(name, .single(matcher)))
            }
        }
        return result
    }

    private mutating func decodeCredentials(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> BasicAuthCredentials
    {
        let members = try object(json, at: path)
        try checkFields(members, at: path, supported: ["username", "password"])
        guard let username = json["username"] else { throw failure(path, "missing 'username'") }
        guard let password = json["password"] else { throw failure(path, "missing 'password'") }
        return BasicAuthCredentials(
            username: try string(username, at: path.key("username")),
            password: try string(password, at: path.key("password")))
    }

    /// RFC 9110 `tchar`.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
