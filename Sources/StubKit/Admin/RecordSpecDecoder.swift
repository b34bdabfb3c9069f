import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads WireMock's recording spec, the body of `POST /__admin/recordings/start` and
/// `/snapshot`: `targetBaseUrl`, `filters` (a request pattern, plus `allowNonProxied` and, for
/// `snapshot`, `ids`), `captureHeaders` (with `caseInsensitive`), `extractBodyCriteria`,
/// `repeatsAsScenarios`, `persist`, `outputFormat`.
/// A wrong field is a 422 naming it (`/filters/method`), as WireMock answers.
struct RecordSpecDecoder {
    /// `outputFormat`: the mappings themselves, or only their ids.
    enum OutputFormat: Sendable { case full, ids }

    static let fields = [
        "targetBaseUrl", "filters", "captureHeaders", "extractBodyCriteria", "repeatsAsScenarios",
        "persist", "outputFormat", "requestBodyPattern", "transformers", "transformerParameters", "forwardProxy"
    ]

    var spec: RecordingSpec
    var outputFormat = OutputFormat.full
    var allowNonProxied = false
    /// `filters.ids` (snapshot only): the journal sequence numbers of the serve events to record;
    /// `nil` records every one the other filters keep. Ids naming no entry of this server match nothing.
    var ids: Set<Int>?
    /// Fields read but not acted on, for the log.
    var ignored: [String] = []

    /// - Parameter requireTarget: `true` for `start`, which needs `targetBaseUrl`.
    init(_ body: [UInt8], requireTarget: Bool, log: LogSink) throws(AdminError) {
        let json: JSONValue =
            body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
            ? .object([]) : try AdminAPI.parseBody(body)
        guard case .object(let members) = json else {
            throw Self.invalid("", "expected an object, found \(json.foundDescription)")
        }
        for member in members where !Self.fields.contains(member.key) {
            let hint =
                FieldSuggestion.closest(to: member.key, among: Self.fields).map { "; did you mean '\($0)'?" } ?? ""
            throw Self.invalid("/\(member.key)", "unknown field\(hint)")
        }
        var target: URL?
        let forwardProxy = try Self.bool(json, "forwardProxy") ?? false
        if let value = json["targetBaseUrl"] {
            guard let text = value.stringValue, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host?.isEmpty == false
            else {
                throw Self.invalid(
                    "/targetBaseUrl",
                    "expected an http or https URL such as \"https://api.github.com\", found \(value.foundDescription)")
            }
            target = url
        } else if requireTarget && !forwardProxy {
            throw Self.invalid(
                "/targetBaseUrl",
                "targetBaseUrl is required (the URL requests are forwarded to while recording), unless forwardProxy is "
                    + "true (each request proxied through the server goes to its own host)")
        }
        spec = RecordingSpec(target: target)
        spec.forwardProxy = forwardProxy
        spec.persist = try Self.bool(json, "persist") ?? true
        // WireMock records repeats as scenarios unless told otherwise; identical answers stay one stub here.
        spec.writer.recordsSequences = try Self.bool(json, "repeatsAsScenarios") ?? true
        if let filters = json["filters"] { try readFilters(filters, snapshot: !requireTarget, log: log) }
        if let capture = json["captureHeaders"] { try readCaptureHeaders(capture) }
        if let criteria = json["extractBodyCriteria"] {
            guard case .object = criteria else {
                throw Self.invalid(
                    "/extractBodyCriteria",
                    "expected an object with textSizeThreshold and binarySizeThreshold, found \(criteria.foundDescription)"
                )
            }
            spec.writer.inlineBodies = BodyExtraction(
                textSizeThreshold: try Self.size(criteria, "textSizeThreshold") ?? 0,
                binarySizeThreshold: try Self.size(criteria, "binarySizeThreshold") ?? 0)
        }
        if let format = json["outputFormat"] {
            switch format.stringValue?.uppercased() {
            case "FULL": outputFormat = .full
            case "IDS": outputFormat = .ids
            default:
                throw Self.invalid("/outputFormat", "expected \"FULL\" or \"IDS\", found \(format.foundDescription)")
            }
        }
        ignored = ["requestBodyPattern", "transformers", "transformerParameters"].filter { json[$0] != nil }
    }

    /// `filters`: a request pattern (`urlPathPattern`, `method`, `headers`, …) and `allowNonProxied`.
    private mutating func readFilters(_ filters: JSONValue, snapshot: Bool, log: LogSink) throws(AdminError) {
        guard case .object(let members) = filters else {
            throw Self.invalid(
                "/filters",
                "expected a request pattern object such as {\"urlPathPattern\": \"/api/.*\"}, found \(filters.foundDescription)"
            )
        }
        if let list = filters["ids"] { ids = try Self.serveEventIDs(list, snapshot: snapshot) }
        allowNonProxied = try Self.bool(filters, "allowNonProxied", at: "/filters/allowNonProxied") ?? false
        let pattern = JSONValue.object(members.filter { $0.key != "allowNonProxied" && $0.key != "ids" })
        do {
            let (decoded, warnings) = try MappingDecoder().decodeRequestPattern(pattern)
            for warning in warnings { log.write("stubserver: admin: recordings: filters: \(warning)") }
            spec.filter = decoded
        } catch {
            let inner = AdminError.invalid(error, title: "Invalid recording filters")
            throw AdminError(
                status: inner.status, code: inner.code, title: inner.title, detail: "filters: " + inner.detail,
                pointer: "/filters" + (inner.pointer ?? ""))
        }
    }

    /// `filters.ids`: serve event ids as `GET /__admin/requests` lists them. Only for `snapshot`:
    /// a live recording's requests have not arrived yet, so no id can name them (WireMock accepts
    /// the field at `start`, then records nothing the ids do not name, that is nothing).
    private static func serveEventIDs(_ list: JSONValue, snapshot: Bool) throws(AdminError) -> Set<Int> {
        guard snapshot else {
            throw invalid(
                "/filters/ids",
                "serve event ids filter a snapshot only (POST /__admin/recordings/snapshot); "
                    + "a recording's requests have no ids yet. Filter by urlPathPattern, method or headers instead")
        }
        guard case .array(let items) = list else {
            throw invalid(
                "/filters/ids",
                "expected an array of serve event ids such as [\"00000000-0000-4000-8000-00000000002a\"] "
                    + "(GET /__admin/requests lists them), found \(list.foundDescription)")
        }
        var numbers: Set<Int> = []
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue, UUID(uuidString: text) != nil else {
                throw invalid(
                    "/filters/ids/\(index)",
                    "expected a serve event id, a UUID such as "
                        + "\"00000000-0000-4000-8000-00000000002a\", found \(item.foundDescription)")
            }
            // A UUID this server never gave names no request: it matches nothing, as in WireMock.
            if let number = LoggedRequest.sequenceNumber(fromAdminID: text) { numbers.insert(number) }
        }
        return numbers
    }

    /// `captureHeaders`: `{"Accept": {}, "X-Client": {"caseInsensitive": true}}`.
    private mutating func readCaptureHeaders(_ capture: JSONValue) throws(AdminError) {
        guard case .object(let headers) = capture else {
            throw Self.invalid(
                "/captureHeaders", "expected an object such as {\"Accept\": {}}, found \(capture.foundDescription)")
        }
        spec.writer.captureHeaders = headers.map(\.key)
        for (name, options) in headers {
            let pointer = "/captureHeaders/" + name.replacing("~", with: "~0").replacing("/", with: "~1")
            switch options {
            case .null:
                continue
            case .object:
                guard let flag = options["caseInsensitive"], flag != .null else { continue }
                guard case .bool(let ignoringCase) = flag else {
                    throw Self.invalid(
                        pointer + "/caseInsensitive", "expected true or false, found \(flag.foundDescription)")
                }
                if ignoringCase { spec.writer.caseInsensitiveHeaders.append(name) }
            case .bool, .number, .string, .array:
                throw Self.invalid(
                    pointer,
                    "expected an object such as {} or {\"caseInsensitive\": true}, found \(options.foundDescription)")
            }
        }
    }

    private static func bool(_ json: JSONValue, _ key: String, at pointer: String? = nil) throws(AdminError) -> Bool? {
        guard let value = json[key] else { return nil }
        guard case .bool(let flag) = value else {
            throw invalid(pointer ?? "/\(key)", "expected true or false, found \(value.foundDescription)")
        }
        return flag
    }

    /// A byte count, as a number or a string of digits (WireMock sends `"2048"`).
    private static func size(_ criteria: JSONValue, _ key: String) throws(AdminError) -> Int? {
        guard let value = criteria[key] else { return nil }
        if let number = value.intValue, number >= 0 { return number }
        if let text = value.stringValue, let number = Int(text.trimmingSpaces()), number >= 0 { return number }
        throw invalid(
            "/extractBodyCriteria/\(key)", "expected a byte count such as \"2048\", found \(value.foundDescription)")
    }

    static func invalid(_ pointer: String, _ detail: String) -> AdminError {
        let field =
            pointer.isEmpty
            ? "body"
            : pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).joined(separator: ".")
        return AdminError(
            status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid recording spec",
            detail: "\(field): \(detail)", pointer: pointer.isEmpty ? "/" : pointer)
    }
}
