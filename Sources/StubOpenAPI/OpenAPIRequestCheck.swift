import StubHTTP
import StubMatching
import StubModel

/// A way a request breaks its operation, or a response its schema: where (a JSON pointer into the request,
/// `/query/limit`, `/header/X-Request-Id`, `/body/items/0/name`) and what.
public struct OpenAPIViolation: Sendable, Hashable, CustomStringConvertible {
    public let pointer: String
    public let message: String

    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    public var description: String { "\(pointer): \(message)" }
}

/// What a document says of a request.
public enum OpenAPIVerdict: Sendable {
    /// No operation has the request's path and method; `methods` are those the path has (empty: no such path).
    case undefined(methods: [String])
    /// The request fits `operation`.
    case valid(OpenAPIOperation)
    /// The request is `operation`'s but breaks it.
    case invalid(OpenAPIOperation, [OpenAPIViolation])
}

extension OpenAPIDocument {
    /// At most this many violations are reported per request.
    public static let violationLimit = 16

    /// Checks `request` against the operation its method and path belong to: path, query and header
    /// parameters (required, and their schemas, after reading the text as the schema's type), the body's
    /// content type and its schema (JSON bodies), and a required body.
    public func check(_ request: StubHTTPRequest) -> OpenAPIVerdict {
        let method = request.method.rawValue
        let path = String(request.rawPath)
        guard let (operation, pathParameters) = operation(method: method, path: path) else {
            return .undefined(methods: router.methods(for: path))
        }
        var found: [OpenAPIViolation] = []
        for parameter in operation.parameters where found.count < Self.violationLimit {
            let at = "/\(parameter.location.rawValue)/" + OpenAPIPointer.escape(parameter.name)
            let values: [String]
            switch parameter.location {
            case .path: values = pathParameters[parameter.name].map { [$0] } ?? []
            case .query: values = request.queryValues(parameter.name)
            case .header: values = request.headers[parameter.name]
            case .cookie: continue  // not checked
            }
            guard !values.isEmpty else {
                if parameter.required {
                    found.append(
                        OpenAPIViolation(
                            pointer: at, message: "the required \(parameter.location.rawValue) parameter is missing"))
                }
                continue
            }
            guard let schema = parameter.schema else { continue }
            let value = coerce(values, for: parameter, schema: schema)
            found += validator.violations(
                of: value, against: schema, at: at, limit: Self.violationLimit - found.count
            ).map { OpenAPIViolation(pointer: $0.path, message: $0.message + Self.shown(value, at: $0.path, from: at)) }
        }
        if let body = operation.requestBody, found.count < Self.violationLimit {
            found += check(request, body: body)
        }
        return found.isEmpty ? .valid(operation) : .invalid(operation, Array(found.prefix(Self.violationLimit)))
    }

    /// ` (got "abc")` after a parameter's message, so the log shows the text that failed.
    private static func shown(_ value: JSONValue, at path: String, from parameter: String) -> String {
        guard path == parameter else { return "" }
        return " (got \(Quoting.truncate(value.serialized(), limit: 80)))"
    }

    private func check(_ request: HTTPRequest, body: OpenAPIOperation.RequestBody) -> [OpenAPIViolation] {
        guard !request.body.isEmpty else {
            return body.required ? [OpenAPIViolation(pointer: "/body", message: "a request body is required")] : []
        }
        guard !body.content.isEmpty else { return [] }
        let declared = request.headers.first(name: "Content-Type")
        guard let type = declared else {
            return [
                OpenAPIViolation(
                    pointer: "/header/Content-Type",
                    message: "missing: the body must be \(body.content.map(\.type).joined(separator: " or "))")
            ]
        }
        guard let media = body.content.first(where: { OpenAPIMediaTypes.covers($0.type, type) }) else {
            return [
                OpenAPIViolation(
                    pointer: "/header/Content-Type",
                    message: "\(Quoting.quote(type)) is not \(body.content.map(\.type).joined(separator: " or "))")
            ]
        }
        guard let schemaPointer = media.schemaPointer, let schema = media.schema else { return [] }
        let instance: JSONValue
        let base = OpenAPIMediaTypes.base(type)
        if base == "application/json" || base.hasSuffix("+json") {
            do {
                instance = try JSONParser.parse(request.body)
            } catch {
                return [OpenAPIViolation(pointer: "/body", message: "not JSON: \(error)")]
            }
        } else if base == "application/x-www-form-urlencoded" {
            instance = formObject(request.body, schemaPointer: schemaPointer)
        } else {
            return []  // other media types: the content type is checked, not the bytes
        }
        return validator.violations(of: instance, against: schema, at: "/body", limit: Self.violationLimit)
            .map { OpenAPIViolation(pointer: $0.path, message: $0.message) }
    }

    /// A form body as an object, each value read as its property's type.
    private func formObject(_ body: [UInt8], schemaPointer: String) -> JSONValue {
        let text = String(decoding: body, as: UTF8.self)
        var members: [(key: String, value: JSONValue)] = []
        let properties = schemaNode(schemaPointer)?["properties"]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decode(parts[0], plusAsSpace: true)
            let value = parts.count > 1 ? PercentDecoding.decode(parts[1], plusAsSpace: true) : ""
            guard !members.contains(where: { $0.key == name }) else { continue }
            let schema = properties?[name].flatMap { follow($0) }
            members.append((name, schema.map { read(value, as: $0) } ?? .string(value)))
        }
        return .object(members)
    }

    /// The parameter's text as the value its schema describes: a number, a boolean, a list of them.
    private func coerce(_ values: [String], for parameter: OpenAPIOperation.Parameter, schema: JSONValue)
        -> JSONValue
    {
        guard let schema = follow(schema) else { return .string(values[0]) }
        if Self.types(of: schema).contains("array") {
            let items: [String]
            if parameter.location == .query, parameter.explode {
                items = values
            } else {
                let separator: Character =
                    switch parameter.style {
                    case "spaceDelimited": " "
                    case "pipeDelimited": "|"
                    default: ","
                    }
                items = values[0].split(separator: separator, omittingEmptySubsequences: false).map(String.init)
            }
            let itemSchema = schema["items"].flatMap { follow($0) }
            return .array(items.map { item in itemSchema.map { read(item, as: $0) } ?? .string(item) })
        }
        return read(values[0], as: schema)
    }

    /// `text` as the first of the schema's types it can be read as.
    private func read(_ text: String, as schema: JSONValue) -> JSONValue {
        for type in Self.types(of: schema) {
            switch type {
            case "integer":
                if Int(text) != nil { return .number(text) }
            case "number":
                if let number = Double(text), number.isFinite,
                    !text.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" })
                {
                    return .number(text)
                }
            case "boolean":
                if text == "true" || text == "false" { return .bool(text == "true") }
            case "null":
                if text.isEmpty || text == "null" { return .null }
            default:
                continue
            }
        }
        return .string(text)
    }

    static func types(of schema: JSONValue) -> [String] {
        switch schema["type"] {
        case .string(let type)?: return [type]
        case .array(let list)?: return list.compactMap(\.stringValue)
        case .null?, .bool?, .number?, .object?, nil: return []
        }
    }

    /// The schema at `pointer` (one the validator was made with), its `$ref`s followed.
    func schemaNode(_ pointer: String) -> JSONValue? {
        validator.node(at: pointer).flatMap { follow($0) }
    }

    /// `schema` with its `$ref`s followed (at most 32 of them).
    func follow(_ schema: JSONValue) -> JSONValue? {
        var node = schema
        for _ in 0..<32 {
            guard case .string(let reference)? = node["$ref"] else { return node }
            guard reference.hasPrefix("#"), let next = validator.resolved(reference) else { return nil }
            node = next
        }
        return nil
    }
}
