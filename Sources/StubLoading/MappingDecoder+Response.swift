import StubHTTP
import StubModel
import StubTemplating

/// Decoding of the `response` object.
extension MappingDecoder.Run {
    static let bodyFields = ["body", "jsonBody", "base64Body", "bodyFileName"]
    static let responseFields =
        ["status", "statusMessage", "headers"] + bodyFields
        + ["fixedDelayMilliseconds", "delayDistribution", "chunkedDribbleDelay", "fault", "transformers"] + proxyFields
    static let responseWireMockOnly: Set<String> = ["transformerParameters", "fromConfiguredStub"]

    /// - Parameter checkingTemplates: whether to check a templated response's templates now (`false` for a
    ///   stub's main response, checked with its `metadata.stubserver` stream or WebSocket once that is decoded).
    mutating func decodeResponse(_ json: JSONValue, at path: MappingPath, checkingTemplates: Bool = true)
        throws(StubsLoadError) -> ResponseDefinition
    {
        let members = try object(json, at: path)
        try checkFields(members, at: path, supported: Self.responseFields, wireMockOnly: Self.responseWireMockOnly)
        var response = ResponseDefinition()
        if let status = json["status"] {
            response.status = try integer(status, at: path.key("status"), in: 100...999)
        }
        if let message = json["statusMessage"] {
            let text = try string(message, at: path.key("statusMessage"))
            guard !text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) else {
                throw failure(path.key("statusMessage"), "must not contain CR or LF")
            }
            response.statusMessage = text
        }
        if let headers = json["headers"] {
            response.headers = try decodeHeaders(headers, at: path.key("headers"))
            // The engine frames every body itself (real Content-Length), as recorded stubs often carry
            // the original response's framing fields. A stub without a body keeps its Content-Length for
            // HEAD requests (the size a GET would get).
            let bodiless = ["body", "jsonBody", "base64Body", "bodyFileName"].allSatisfy { json[$0] == nil }
            for name in ["Content-Length", "Transfer-Encoding"] where response.headers.contains(name: name) {
                if name == "Content-Length" && bodiless { continue }
                warn(.noEffect, name, at: path.key("headers"))
            }
        }
        if let transformers = json["transformers"] {
            response.transformers = try decodeTransformers(transformers, at: path.key("transformers"))
        }
        let templated = response.isTemplated(under: options)
        response.body = try decodeBody(
            members, at: path, templated: templated, streamedFile: &response.streamedBodyFile,
            problem: &response.bodyFileProblem)
        if let delay = json["fixedDelayMilliseconds"] {
            response.fixedDelayMilliseconds = try integer(
                delay, at: path.key("fixedDelayMilliseconds"), in: 0...Int.max)
        }
        try decodeDelaysAndFault(json, into: &response, at: path)
        response.proxy = try decodeProxy(json, at: path, problem: &response.bodyFileProblem)
        if templated, checkingTemplates { try checkTemplates(&response, at: path) }
        return response
    }

    /// `{"Name": "value"}` or `{"Name": ["v1", "v2"]}`; order kept, a list gives several fields.
    func decodeHeaders(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> StubHTTPHeaders {
        var headers = StubHTTPHeaders()
        for (name, value) in try object(json, at: path) {
            let fieldPath = path.key(name)
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                throw failure(fieldPath, "invalid header name \(JSONValue.string(name).serialized())")
            }
            let values: [String]
            switch value {
            case .string(let text):
                values = [text]
            case .array(let elements):
                var texts: [String] = []
                for (index, element) in elements.enumerated() {
                    guard case .string(let text) = element else {
                        throw failure(fieldPath.index(index), "expected a string, found \(element.foundDescription)")
                    }
                    texts.append(text)
                }
                values = texts
            case .null, .bool, .number, .object:
                throw failure(fieldPath, "expected a string or an array of strings, found \(value.foundDescription)")
            }
            for text in values {
                guard !text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                    throw failure(fieldPath, "header value must not contain CR, LF or NUL")
                }
                headers.add(name: name, value: text)
            }
        }
        return headers
    }

    /// - Parameter streamedFile: set to the body file when it is left on disk (``BodyFiles/load(_:cacheLimit:)``).
    private mutating func decodeBody(
        _ members: [(key: String, value: JSONValue)], at path: MappingPath, templated: Bool,
        streamedFile: inout StreamedBodyFile?, problem: inout String?
    ) throws(StubsLoadError) -> ResponseDefinition.Body {
        let present = members.filter { Self.bodyFields.contains($0.key) }
        guard let (key, value) = present.first else { return .none }
        if present.count > 1 {
            throw failure(
                path,
                "both '\(key)' and '\(present[1].key)' are set; use only one of \(Self.bodyFields.joined(separator: ", "))"
            )
        }
        let fieldPath = path.key(key)
        switch key {
        case "body":
            return .text(try string(value, at: fieldPath))
        case "jsonBody":
            return .json(value)
        case "base64Body":
            let text = try string(value, at: fieldPath)
            do {
                return .bytes(try Base64.decode(text))
            } catch {
                throw failure(fieldPath, "invalid base64: \(error)")
            }
        default:
            let name = try string(value, at: fieldPath)
            guard let bodyFiles else {
                throw failure(fieldPath, "'bodyFileName' needs a stubs directory with a __files folder")
            }
            // A templated file name is resolved per request among files read in checkTemplates.
            if templated, Template.hasTags(name.utf8) { return .file(name: name, bytes: []) }
            do {
                // A template needs its text; a plain file over the cache limit stays on disk.
                switch try bodyFiles.load(name, cacheLimit: templated ? .max : BodyFiles.cacheLimit) {
                case .cached(let bytes):
                    return .file(name: name, bytes: bytes)
                case .streamed(let file):
                    streamedFile = file
                    return .file(name: name, bytes: [])
                }
            } catch {
                // WireMock loads a stub whose file is missing, or outside __files, and answers 500 when it is
                // hit; the file is never read.
                guard !options.strictBodyFiles else { throw failure(fieldPath, error.description) }
                warn(.answers500(reason: error.description), key, at: path)
                problem = failure(fieldPath, error.description).description
                return .file(name: name, bytes: [])
            }
        }
    }
}
