import StubMatching
import StubModel

/// A value while a template is evaluated. Request fields are read lazily from the
/// ``TemplateRequestModel``, so a template that only uses `request.path` computes nothing else.
/// Lives for one evaluation on one thread (not `Sendable`).
enum TemplateValue {
    /// Absent or `null`: renders empty, is falsy.
    case missing
    case string(String)
    case integer(Int)
    case double(Double)
    case bool(Bool)
    /// A JSONPath result: strings raw, numbers as Java prints them, objects as Jackson's pretty JSON,
    /// arrays as compact JSON (as WireMock 2.35.1 renders them).
    case json(JSONValue)
    /// A multi-valued request field (a query parameter, a header, a cookie): renders its first value;
    /// `.[N]` picks one; truthy when there is at least one value (even an empty one).
    case values([String])
    /// A list built by a helper.
    case list([TemplateValue])
    /// A date (`parseDate`, `truncateDate`): milliseconds since 1970, and the offset it was written with
    /// (`nil`: UTC). Renders as WireMock's ISO 8601 form, `2024-03-05T10:15:30Z` or `…+02:00`.
    case date(Int64, offsetSeconds: Int?)
    /// A map built by a helper (`formData`): renders as Java's `{a=1, b=x}`.
    case map([(key: String, value: TemplateValue)])
    /// Nodes `xPath` selected.
    case xml(TemplateXML)
    /// The root object: `request`.
    case root(TemplateRequestModel)
    /// `request`.
    case request(TemplateRequestModel)
    /// `request.path` / `request.pathSegments`: renders the decoded path; `.[N]` is a segment, `.name` a
    /// `urlPathTemplate` parameter.
    case path(TemplateRequestModel)
    /// `request.query`, `request.headers`, `request.cookies`: name → ``values(_:)``.
    case fields(TemplateRequestModel, TemplateRequestModel.FieldKind)
    /// `request.body`: the body as text, with its JSON parsed at most once for `jsonPath`.
    case body(TemplateRequestModel)

    /// The member `name` (or index, for lists and paths), or ``missing``.
    func member(_ name: String) -> TemplateValue {
        switch self {
        case let .root(model):
            return name == "request" ? .request(model) : .missing
        case let .request(model):
            return model.member(name)
        case let .path(model):
            if let index = Int(name) {
                return model.segments.indices.contains(index) ? .string(model.segments[index]) : .missing
            }
            return model.pathParameters[name].map(TemplateValue.string) ?? .missing
        case let .fields(model, kind):
            return model.values(kind, name).map(TemplateValue.values) ?? .missing
        case let .values(values):
            guard let index = Int(name), values.indices.contains(index) else { return .missing }
            return .string(values[index])
        case let .list(items):
            guard let index = Int(name), items.indices.contains(index) else { return .missing }
            return items[index]
        case let .map(entries):
            return entries.first { $0.key == name }?.value ?? .missing
        case let .xml(selection):
            return selection.member(name)
        case let .json(json):
            switch json {
            case let .object(members): return members.first { $0.key == name }.map { .json($0.value) } ?? .missing
            case let .array(items):
                guard let index = Int(name), items.indices.contains(index) else { return .missing }
                return .json(items[index])
            case .null, .bool, .number, .string: return .missing
            }
        case .body, .missing, .string, .integer, .double, .bool, .date:
            return .missing
        }
    }

    /// Handlebars' truthiness: empty strings, `0`, `false`, missing values and empty lists are falsy.
    var isTruthy: Bool {
        switch self {
        case .missing: false
        case let .string(text): !text.isEmpty
        case let .integer(value): value != 0
        case let .double(value): value != 0
        case let .bool(value): value
        case let .json(json):
            switch json {
            case .null: false
            case let .bool(value): value
            case let .string(text): !text.isEmpty
            case let .number(text): Double(text).map { $0 != 0 } ?? true
            case let .array(items): !items.isEmpty
            case let .object(members): !members.isEmpty
            }
        case let .values(values): !values.isEmpty
        case let .list(items): !items.isEmpty
        case let .map(entries): !entries.isEmpty
        case let .xml(selection): !selection.nodes.isEmpty
        case .date: true
        case .root, .request, .path, .fields: true
        case let .body(model): !model.request.body.isEmpty
        }
    }

    /// The text `{{value}}` shows (before HTML escaping).
    var text: String {
        switch self {
        case .missing: ""
        case let .string(text): text
        case let .integer(value): String(value)
        case let .double(value): JSONRendering.javaDouble(value)
        case let .bool(value): value ? "true" : "false"
        case let .json(json): Self.text(of: json)
        case let .values(values): values.first ?? ""
        case let .list(items): "[" + items.map(\.javaText).joined(separator: ", ") + "]"
        case let .date(milliseconds, offset): TemplateDates.iso(milliseconds, offsetSeconds: offset)
        case let .map(entries): "{" + entries.map { "\($0.key)=\($0.value.javaText)" }.joined(separator: ", ") + "}"
        case let .xml(selection): selection.text
        case .root, .request: ""
        case let .path(model): model.path
        case let .fields(model, kind): model.fieldsDescription(kind)
        case let .body(model): model.bodyText
        }
    }

    static func text(of json: JSONValue) -> String {
        switch json {
        case .null: ""
        case let .string(text): text
        case let .number(text): JSONRendering.javaNumber(text)
        case let .bool(value): value ? "true" : "false"
        case .array: json.serialized(.compact)
        case let .object(members): members.isEmpty ? "{ }" : JSONRendering.jacksonPretty(json)
        }
    }

    /// The elements `#each` walks and `size` counts: (key, value) pairs; keys are nil for lists.
    var elements: [(key: String?, value: TemplateValue)]? {
        switch self {
        case let .values(values): values.map { (nil, .string($0)) }
        case let .list(items): items.map { (nil, $0) }
        case let .map(entries): entries.map { ($0.key, $0.value) }
        case let .path(model): model.segments.map { (nil, .string($0)) }
        case let .fields(model, kind):
            model.fieldNames(kind).map { ($0, model.values(kind, $0).map(TemplateValue.values) ?? .missing) }
        case let .json(.array(items)): items.map { (nil, .json($0)) }
        case let .json(.object(members)): members.map { ($0.key, .json($0.value)) }
        case let .xml(selection): selection.each.map { (nil, .xml($0)) }
        case .missing, .string, .integer, .double, .bool, .json, .date, .root, .request, .body: nil
        }
    }
}
