import StubMatching
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes WireMock stub mapping JSON into ``StubMapping`` values.
///
/// A document is either one mapping object or `{"mappings": [...]}`. Errors name the file and the
/// JSON path; ignored WireMock features and unknown fields become ``MappingWarning``s.
///
/// ```swift
/// let decoder = MappingDecoder(bodyFiles: BodyFiles(directory: filesURL, displayPath: "Stubs/__files"))
/// let result = try decoder.decodeDocument(json, file: "Stubs/mappings/users.json")
/// result.mappings  // [StubMapping]
/// result.warnings  // [MappingWarning]
/// ```
public struct MappingDecoder: Sendable {
    /// Where `bodyFileName` is looked up; `nil` makes `bodyFileName` an error.
    public var bodyFiles: BodyFiles?
    /// The settings that change what a stub means (``StubsLoadOptions/globalResponseTemplating``).
    public var options: StubsLoadOptions
    /// The matchers of the stubs decoded so far, compiled to check them: what ``StubsLoadResult/compiled``
    /// hands to the route table.
    package let compiled = CompiledMatchers()

    public init(bodyFiles: BodyFiles? = nil, options: StubsLoadOptions = StubsLoadOptions()) {
        self.bodyFiles = bodyFiles
        self.options = options
    }

    /// A decoder with ``StubsLoadOptions/globalResponseTemplating`` set.
    public init(bodyFiles: BodyFiles? = nil, globalResponseTemplating: Bool) {
        self.init(bodyFiles: bodyFiles, options: StubsLoadOptions(globalResponseTemplating: globalResponseTemplating))
    }

    /// Every response is a template (``StubsLoadOptions/globalResponseTemplating``).
    public var globalResponseTemplating: Bool {
        get { options.globalResponseTemplating }
        set { options.globalResponseTemplating = newValue }
    }

    /// What one document decodes to.
    public struct Result: Sendable {
        /// In document order.
        public var mappings: [StubMapping]
        public var warnings: [MappingWarning]
    }

    /// Decodes a whole stub file: one mapping object, or `{"mappings": [...]}`.
    /// - Parameters:
    ///   - json: The parsed document.
    ///   - file: The file as shown to the user (e.g. `Stubs/mappings/users.json`); used in errors, in
    ///     ``StubMapping/source`` and to derive ids for mappings without one. `nil` for ad-hoc JSON.
    /// - Throws: ``StubsLoadError`` naming the file and JSON path.
    public func decodeDocument(_ json: JSONValue, file: String?) throws(StubsLoadError) -> Result {
        var stopAtFirstError: [StubsLoadError]? = nil
        return try decodeDocument(json, file: file, errors: &stopAtFirstError)
    }

    /// ``decodeDocument(_:file:)``, going on past invalid mappings of a `{"mappings": [...]}` list when
    /// `errors` is given: each is appended to it and left out of the result (`stubserver check`).
    func decodeDocument(
        _ json: JSONValue, file: String?,
        errors: inout [StubsLoadError]?
    ) throws(StubsLoadError) -> Result {
        var run = Run(file: file, bodyFiles: bodyFiles, options: options, compiled: compiled)
        guard case .object(let members) = json else {
            throw run.failure(
                .root, "expected a mapping object or {\"mappings\": [...]}, found \(json.foundDescription)")
        }
        guard let list = json["mappings"] else {
            let mapping = try run.decodeMapping(json, at: .root, source: file, index: 0)
            return Result(mappings: [mapping], warnings: run.warnings)
        }
        try run.checkFields(members, at: .root, supported: ["mappings"], silent: ["meta"])
        let listPath = MappingPath.root.key("mappings")
        guard case .array(let elements) = list else {
            throw run.failure(listPath, "expected an array of mappings, found \(list.foundDescription)")
        }
        var mappings: [StubMapping] = []
        for (index, element) in elements.enumerated() {
            let source = file.map { "\($0) [\(index)]" }
            do {
                mappings.append(try run.decodeMapping(element, at: listPath.index(index), source: source, index: index))
            } catch {
                guard errors != nil else { throw error }
                errors?.append(error)
            }
        }
        return Result(mappings: mappings, warnings: run.warnings)
    }

    /// Decodes one mapping object (not a `{"mappings": [...]}` document).
    /// - Parameters:
    ///   - json: The mapping object.
    ///   - source: Stored in ``StubMapping/source`` and used as the file in messages.
    /// - Throws: ``StubsLoadError`` naming the JSON path.
    public func decodeMapping(_ json: JSONValue, source: String?) throws(StubsLoadError) -> (
        StubMapping, [MappingWarning]
    ) {
        var run = Run(file: source, bodyFiles: bodyFiles, options: options, compiled: compiled)
        let mapping = try run.decodeMapping(json, at: .root, source: source, index: 0)
        return (mapping, run.warnings)
    }

    /// Decodes a request pattern object alone, as the `request` of a mapping is decoded (the admin
    /// API's `/__admin/requests/count` and `/__admin/requests/find` bodies).
    /// - Throws: ``StubsLoadError`` naming the JSON path inside the pattern (`urlPath`, `headers.Accept`).
    public func decodeRequestPattern(_ json: JSONValue) throws(StubsLoadError) -> (RequestPattern, [MappingWarning]) {
        var run = Run(file: nil, bodyFiles: bodyFiles)
        let pattern = try run.decodeRequest(json, at: .root)
        return (pattern, run.warnings)
    }

    /// The events or lines of `json`, an object with `events` or `lines` as in `metadata.stubserver` (what
    /// the admin API pushes into open streams).
    package func decodeStreamContent(_ json: JSONValue) throws(StubsLoadError) -> ResponseStream.Content? {
        var run = Run(file: nil, bodyFiles: bodyFiles)
        return try run.decodeStream(json, at: .root)?.content
    }

    /// WebSocket messages in the stub-file form (`[{"text": "hi"}, {"json": …}, {"base64": "…"}]`), for the admin
    /// API's sends.
    package func decodeWebSocketMessages(_ json: JSONValue) throws(StubsLoadError) -> [WebSocketOutgoing] {
        var run = Run(file: nil, bodyFiles: bodyFiles)
        return try run.decodeMessages(json, at: MappingPath.root.key("messages"))
    }

    /// The state of one decoding: the file for messages and the warnings so far.
    package struct Run {
        let file: String?
        let bodyFiles: BodyFiles?
        var options = StubsLoadOptions()
        var warnings: [MappingWarning] = []
        /// `matchesJsonPath` matchers with a matcher of their own open around the one being decoded.
        var matcherDepth = 0
        /// The unsupported matchers met in the request being decoded: it will never match.
        var unsupportedMatchers: [UnsupportedMatcher] = []
        /// Where the matchers decoded are compiled, once (``MappingDecoder/compiled``).
        let compiled: CompiledMatchers

        init(
            file: String?, bodyFiles: BodyFiles?, options: StubsLoadOptions = StubsLoadOptions(),
            compiled: CompiledMatchers = CompiledMatchers()
        ) {
            self.file = file
            self.bodyFiles = bodyFiles
            self.options = options
            self.compiled = compiled
        }

        static let topLevelFields = [
            "id", "uuid", "name", "priority", "request", "response",
            "scenarioName", "requiredScenarioState", "newScenarioState", "metadata", "persistent"
        ]
        static let topLevelWireMockOnly: Set<String> = ["postServeActions", "serveEventListeners"]

        mutating func decodeMapping(_ json: JSONValue, at path: MappingPath, source: String?, index: Int)
            throws(StubsLoadError) -> StubMapping
        {
            let members = try object(json, at: path)
            try checkFields(
                members, at: path, supported: Self.topLevelFields,
                // `insertionIndex`: WireMock's place of the stub among the others, in the files it saves and in
                // stubserver's listings; where a stub goes is the server's business.
                silent: ["insertionIndex"], wireMockOnly: Self.topLevelWireMockOnly)
            let id = try decodeID(json, at: path) ?? Self.derivedID(source: file, index: index)
            let name = try json["name"].map { (value) throws(StubsLoadError) in try string(value, at: path.key("name"))
            }
            let priority = try json["priority"].map { (value) throws(StubsLoadError) in
                try coercedInteger(value, at: path.key("priority"), in: 0...Int.max)
            }
            guard let requestJSON = json["request"] else { throw failure(path, "missing 'request'") }
            guard let responseJSON = json["response"] else { throw failure(path, "missing 'response'") }
            var request = try decodeRequest(requestJSON, at: path.key("request"))
            // What the route table takes instead of compiling the matchers again, wherever the stub goes (a
            // stubs directory's load, the admin API).
            request.loaded = LoadedParts(compiled)
            let response = try decodeResponse(responseJSON, at: path.key("response"), checkingTemplates: false)
            let metadata = json["metadata"]
            if let metadata, case .object = metadata {
            } else if let metadata {
                throw failure(path.key("metadata"), "expected an object, found \(metadata.foundDescription)")
            }
            var mapping = StubMapping(
                id: id, name: name, priority: priority ?? StubMapping.defaultPriority,
                request: request, response: response, source: source, metadata: metadata)
            if let persistent = json["persistent"], persistent != .null {
                mapping.persistent = try bool(persistent, at: path.key("persistent"))
            }
            try decodeScenario(json, into: &mapping, at: path)
            try decodeMetadata(metadata, into: &mapping, at: path.key("metadata"))
            if mapping.response.isTemplated(under: options) {
                try checkTemplates(&mapping.response, at: path.key("response"), mapping: path)
            }
            return mapping
        }

        /// `id` or `uuid`; when both are there and differ, the one written later counts, as in WireMock (Jackson
        /// sets the property twice), and the other is reported as ignored.
        private mutating func decodeID(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> String? {
            guard case .object(let members) = json else { return nil }
            var chosen: (key: String, value: String)?
            for (key, value) in members where key == "id" || key == "uuid" {
                let text = try string(value, at: path.key(key))
                guard !text.isEmpty else { throw failure(path.key(key), "expected a non-empty string") }
                if let earlier = chosen, earlier.value != text { warn(.noEffect, earlier.key, at: path) }
                chosen = (key, text)
            }
            return chosen?.value
        }

        /// A UUID-shaped id derived from the file and the index in it, so that ids of mappings
        /// without one are stable from one run to the next; random when there is no file.
        package static func derivedID(source: String?, index: Int) -> String {
            guard let source else { return UUID().uuidString.lowercased() }
            let seed = Array("\(source)#\(index)".utf8)
            var bytes = fnv1a(seed, basis: 0xcbf2_9ce4_8422_2325) + fnv1a(seed, basis: 0x84222325_cbf29ce4)
            bytes[6] = bytes[6] & 0x0F | 0x80  // version 8 (custom)
            bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
            let text = bytes.map { hex(UInt32($0), width: 2).lowercased() }.joined()
            let characters = Array(text)
            return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
        }

        private static func fnv1a(_ data: [UInt8], basis: UInt64) -> [UInt8] {
            var hash = basis
            for byte in data {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            return (0..<8).map { UInt8(truncatingIfNeeded: hash >> (56 - 8 * $0)) }
        }
    }
}
