import StubMatching
import StubModel

/// One operation of an OpenAPI document: a method on a path, its parameters, request body and responses.
public struct OpenAPIOperation: Sendable {
    /// `operationId`, else `GET /pets/{id}`.
    public let id: String
    /// Upper case: `GET`.
    public let method: String
    /// The path template as the document writes it: `/pets/{petId}`.
    public let path: String
    /// Where it is in the document: `#/paths/~1pets~1{petId}/get`.
    public let pointer: String
    public let parameters: [Parameter]
    public let requestBody: RequestBody?
    /// In document order.
    public let responses: [Response]

    /// Where a parameter goes.
    public enum Location: String, Sendable, Hashable {
        case path, query, header, cookie
    }

    /// A parameter (the path item's, overridden by the operation's of the same name and place).
    public struct Parameter: Sendable {
        public let name: String
        public let location: Location
        public let required: Bool
        /// The JSON pointer (in ``OpenAPIDocument/root``) of its schema, if it has one.
        public let schemaPointer: String?
        /// `form` (query), `simple` (path, header), or as written.
        public let style: String
        public let explode: Bool
        /// The schema at ``schemaPointer``.
        let schema: JSONValue?
    }

    /// A media type of a request body or response, with its schema and examples.
    public struct MediaType: Sendable {
        /// `application/json`, `text/*`, `*/*`…
        public let type: String
        public let schemaPointer: String?
        /// `example`, then the values of `examples` by name, in document order.
        public let example: JSONValue?
        public let examples: [(name: String, value: JSONValue)]
        /// The schema at ``schemaPointer``.
        let schema: JSONValue?

        /// Whether the type is JSON (`application/json`, `application/problem+json`, `*/*`).
        public var isJSON: Bool {
            let base = OpenAPIMediaTypes.base(type)
            return base == "application/json" || base.hasSuffix("+json") || base == "*/*"
        }
    }

    /// `requestBody`.
    public struct RequestBody: Sendable {
        public let required: Bool
        public let content: [MediaType]
    }

    /// One entry of `responses`.
    public struct Response: Sendable {
        /// `200`, `2XX` or `default`.
        public let status: String
        public let content: [MediaType]

        /// The status code it answers with: its own, `200` for `2XX` and `default`, `400` for `4XX`…
        public var code: Int {
            if let code = Int(status) { return code }
            if let first = status.first?.wholeNumberValue, status.count == 3 { return first * 100 }
            return 200
        }

        /// Whether it covers `code`.
        public func covers(_ code: Int) -> Bool {
            if let own = Int(status) { return own == code }
            if status.count == 3, let first = status.first?.wholeNumberValue { return code / 100 == first }
            return status == "default"
        }

        /// The JSON media type if there is one, else the first.
        public var preferredContent: MediaType? { content.first(where: \.isJSON) ?? content.first }
    }

    /// The first success response: the first `2xx` or `2XX` in document order, else `default`.
    public var successResponse: Response? {
        responses.first { (200..<300).contains($0.code) && $0.status != "default" }
            ?? responses.first { $0.status == "default" }
    }

    /// Every schema the operation validates or generates with, by pointer.
    var schemaEntries: [(pointer: String, node: JSONValue)] {
        var entries: [(pointer: String, node: JSONValue)] = []
        for parameter in parameters {
            if let pointer = parameter.schemaPointer, let schema = parameter.schema {
                entries.append((pointer, schema))
            }
        }
        let media = (requestBody?.content ?? []) + responses.flatMap(\.content)
        for type in media {
            if let pointer = type.schemaPointer, let schema = type.schema { entries.append((pointer, schema)) }
        }
        return entries
    }

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Every operation of `root`, checked.
    static func all(in root: JSONValue, file: String) throws(OpenAPIError) -> [OpenAPIOperation] {
        let reader = OpenAPIReader(root: root, file: file)
        guard let paths = root["paths"] else {
            // 3.1 allows a document of webhooks or components only.
            return []
        }
        guard case .object(let items) = paths else { throw reader.fail("#/paths", "expected an object of paths") }
        var operations: [OpenAPIOperation] = []
        var ids: [String: String] = [:]
        for (path, value) in items {
            let itemPointer = "/paths/" + OpenAPIPointer.escape(path)
            guard path.hasPrefix("/") else { throw reader.fail("#" + itemPointer, "a path must start with \"/\"") }
            let (item, itemAt) = try reader.deref(value, at: itemPointer)
            let shared = try reader.parameters(in: item, at: itemAt)
            for method in methods {
                guard let operation = item[method] else { continue }
                let at = itemAt + "/" + method
                guard case .object = operation else { throw reader.fail("#" + at, "expected an operation object") }
                var parameters = shared
                for own in try reader.parameters(in: operation, at: at) {
                    parameters.removeAll { $0.name == own.name && $0.location == own.location }
                    parameters.append(own)
                }
                try Self.checkPathParameters(parameters, path: path, at: at, reader: reader)
                let id = operation["operationId"]?.stringValue ?? "\(method.uppercased()) \(path)"
                if let other = ids[id] {
                    throw reader.fail(
                        "#" + at + "/operationId", "operationId \(Quoting.quote(id)) is also at #\(other)")
                }
                ids[id] = at
                operations.append(
                    OpenAPIOperation(
                        id: id, method: method.uppercased(), path: path, pointer: "#" + at, parameters: parameters,
                        requestBody: try reader.requestBody(of: operation, at: at),
                        responses: try reader.responses(of: operation, at: at)))
            }
        }
        return operations
    }

    private static func checkPathParameters(
        _ parameters: [Parameter], path: String, at pointer: String, reader: OpenAPIReader
    ) throws(OpenAPIError) {
        let declared = Set(parameters.filter { $0.location == .path }.map(\.name))
        for name in PathTemplate(path).names where !declared.contains(name) {
            throw reader.fail("#" + pointer, "the path has {\(name)}, but no path parameter \(Quoting.quote(name))")
        }
    }
}

/// Reads the parts of a document an operation needs, following `$ref`s to components.
struct OpenAPIReader {
    let root: JSONValue
    let file: String
    static let maxHops = 32

    func fail(_ place: String, _ message: String) -> OpenAPIError {
        OpenAPIError(file: file, place: place, message: message)
    }

    /// `node` (found at `pointer`), and where it really is once `$ref`s are followed. Only references are looked up
    /// from the root: a document's objects are lists, searched member by member.
    func deref(_ node: JSONValue, at pointer: String) throws(OpenAPIError) -> (JSONValue, String) {
        var at = pointer
        var node = node
        for hop in 0..<Self.maxHops {
            if hop > 0 {
                guard let next = OpenAPIPointer.resolve(Substring(at), in: root) else {
                    throw fail("#" + pointer, "nothing at #\(at)")
                }
                node = next
            }
            guard case .string(let reference)? = node["$ref"] else { return (node, at) }
            guard reference.hasPrefix("#") else { throw fail("#" + at + "/$ref", "unresolved $ref \(reference)") }
            guard OpenAPIPointer.resolve(reference.dropFirst(), in: root) != nil else {
                throw fail("#" + at + "/$ref", "$ref \(Quoting.quote(reference)): no such place in the document")
            }
            at = String(reference.dropFirst())
        }
        throw fail("#" + pointer, "$refs lead through more than \(Self.maxHops) hops (a cycle?)")
    }

    func parameters(in node: JSONValue, at pointer: String) throws(OpenAPIError) -> [OpenAPIOperation.Parameter] {
        guard let list = node["parameters"] else { return [] }
        guard case .array(let items) = list else { throw fail("#" + pointer + "/parameters", "expected a list") }
        var result: [OpenAPIOperation.Parameter] = []
        for (index, item) in items.enumerated() {
            let (parameter, at) = try deref(item, at: pointer + "/parameters/\(index)")
            guard let name = parameter["name"]?.stringValue else { throw fail("#" + at, "a parameter needs a name") }
            guard let place = parameter["in"]?.stringValue, let location = OpenAPIOperation.Location(rawValue: place)
            else { throw fail("#" + at + "/in", "expected one of path, query, header, cookie") }
            let required = parameter["required"] == .bool(true) || location == .path
            var schemaPointer = parameter["schema"] != nil ? at + "/schema" : nil
            var schema = parameter["schema"]
            if schemaPointer == nil, case .object(let content)? = parameter["content"], let first = content.first,
                let inner = first.value["schema"]
            {
                schemaPointer = at + "/content/" + OpenAPIPointer.escape(first.key) + "/schema"
                schema = inner
            }
            let style =
                parameter["style"]?.stringValue ?? (location == .query || location == .cookie ? "form" : "simple")
            let explode =
                parameter["explode"].flatMap { if case .bool(let b) = $0 { b } else { nil } } ?? (style == "form")
            result.append(
                OpenAPIOperation.Parameter(
                    name: name, location: location, required: required, schemaPointer: schemaPointer, style: style,
                    explode: explode, schema: schema))
        }
        return result
    }

    func requestBody(of operation: JSONValue, at pointer: String) throws(OpenAPIError) -> OpenAPIOperation.RequestBody?
    {
        guard let requestBody = operation["requestBody"] else { return nil }
        let (body, at) = try deref(requestBody, at: pointer + "/requestBody")
        return OpenAPIOperation.RequestBody(
            required: body["required"] == .bool(true), content: try content(of: body, at: at))
    }

    func responses(of operation: JSONValue, at pointer: String) throws(OpenAPIError) -> [OpenAPIOperation.Response] {
        guard let responses = operation["responses"] else { return [] }
        guard case .object(let members) = responses else {
            throw fail("#" + pointer + "/responses", "expected an object of responses by status")
        }
        var result: [OpenAPIOperation.Response] = []
        for (status, value) in members {
            let statusAt = pointer + "/responses/" + OpenAPIPointer.escape(status)
            guard status == "default" || Self.isStatus(status) else {
                throw fail("#" + statusAt, "a response key is a status (200, 2XX) or default")
            }
            let (response, at) = try deref(value, at: statusAt)
            result.append(OpenAPIOperation.Response(status: status, content: try content(of: response, at: at)))
        }
        return result
    }

    private static func isStatus(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 3, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(bytes[0]) else { return false }
        let digits = bytes[1...].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        let range = bytes[1...].allSatisfy { $0 == UInt8(ascii: "X") || $0 == UInt8(ascii: "x") }
        return digits || range
    }

    private func content(of node: JSONValue, at pointer: String) throws(OpenAPIError) -> [OpenAPIOperation.MediaType] {
        guard let content = node["content"] else { return [] }
        guard case .object(let types) = content else { throw fail("#" + pointer + "/content", "expected an object") }
        var result: [OpenAPIOperation.MediaType] = []
        for (type, media) in types {
            let at = pointer + "/content/" + OpenAPIPointer.escape(type)
            var examples: [(name: String, value: JSONValue)] = []
            if case .object(let named)? = media["examples"] {
                for (name, value) in named {
                    let (example, _) = try deref(value, at: at + "/examples/" + OpenAPIPointer.escape(name))
                    // `externalValue` examples are not fetched: only `value`.
                    if let value = example["value"] { examples.append((name, value)) }
                }
            }
            result.append(
                OpenAPIOperation.MediaType(
                    type: type, schemaPointer: media["schema"] != nil ? at + "/schema" : nil, example: media["example"],
                    examples: examples, schema: media["schema"]))
        }
        return result
    }
}
