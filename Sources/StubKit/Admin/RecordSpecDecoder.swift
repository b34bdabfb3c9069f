#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubHTTP

/// Reads WireMock's recording spec, the body of `POST /__admin/recordings/start` and
/// `/snapshot`: `targetBaseUrl`, `filters` (a request pattern, plus `allowNonProxied`),
/// `captureHeaders`, `extractBodyCriteria`, `repeatsAsScenarios`, `persist`, `outputFormat`.
/// A wrong field is a 422 naming it (`/filters/method`), as WireMock answers.
struct RecordSpecDecoder {
    /// `outputFormat`: the mappings themselves, or only their ids.
    enum OutputFormat: Sendable { case full, ids }

    static let fields = ["targetBaseUrl", "filters", "captureHeaders", "extractBodyCriteria", "repeatsAsScenarios",
                         "persist", "outputFormat", "requestBodyPattern", "transformers", "transformerParameters"]

    var spec: RecordingSpec
    var outputFormat = OutputFormat.full
    var allowNonProxied = false
    /// Fields read but not acted on, for the log.
    var ignored: [String] = []

    /// - Parameter requireTarget: `true` for `start`, which needs `targetBaseUrl`.
    init(_ body: [UInt8], requireTarget: Bool, log: LogSink) throws(AdminError) {
        let json: JSONValue = body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
            ? .object([]) : try AdminAPI.parseBody(body)
        guard case .object(let members) = json else { throw Self.invalid("", "expected an object, found \(json.foundDescription)") }
        for member in members where !Self.fields.contains(member.key) {
            let hint = FieldSuggestion.closest(to: member.key, among: Self.fields).map { "; did you mean '\($0)'?" } ?? ""
            throw Self.invalid("/\(member.key)", "unknown field\(hint)")
        }
        var target = URL(fileURLWithPath: "/")
        if let value = json["targetBaseUrl"] {
            guard let text = value.stringValue, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
                throw Self.invalid("/targetBaseUrl", "expected an http or https URL such as \"https://api.github.com\", found \(value.foundDescription)")
            }
            target = url
        } else if requireTarget {
            throw Self.invalid("/targetBaseUrl", "targetBaseUrl is required: the URL requests are forwarded to while recording")
        }
        spec = RecordingSpec(target: target)
        spec.persist = try Self.bool(json, "persist") ?? true
        // WireMock records repeats as scenarios unless told otherwise; identical answers stay one stub here.
        spec.writer.recordsSequences = try Self.bool(json, "repeatsAsScenarios") ?? true
        if let filters = json["filters"] { try readFilters(filters, log: log) }
        if let capture = json["captureHeaders"] {
            guard case .object(let headers) = capture else {
                throw Self.invalid("/captureHeaders", "expected an object such as {\"Accept\": {}}, found \(capture.foundDescription)")
            }
            spec.writer.captureHeaders = headers.map(\.key)
        }
        if let criteria = json["extractBodyCriteria"] {
            guard case .object = criteria else {
                throw Self.invalid("/extractBodyCriteria", "expected an object with textSizeThreshold and binarySizeThreshold, found \(criteria.foundDescription)")
            }
            spec.writer.inlineBodies = BodyExtraction(
                textSizeThreshold: try Self.size(criteria, "textSizeThreshold") ?? 0,
                binarySizeThreshold: try Self.size(criteria, "binarySizeThreshold") ?? 0)
        }
        if let format = json["outputFormat"] {
            switch format.stringValue?.uppercased() {
            case "FULL": outputFormat = .full
            case "IDS": outputFormat = .ids
            default: throw Self.invalid("/outputFormat", "expected \"FULL\" or \"IDS\", found \(format.foundDescription)")
            }
        }
        ignored = ["requestBodyPattern", "transformers", "transformerParameters"].filter { json[$0] != nil }
    }

    /// `filters`: a request pattern (`urlPathPattern`, `method`, `headers`, …) and `allowNonProxied`.
    private mutating func readFilters(_ filters: JSONValue, log: LogSink) throws(AdminError) {
        guard case .object(let members) = filters else {
            throw Self.invalid("/filters", "expected a request pattern object such as {\"urlPathPattern\": \"/api/.*\"}, found \(filters.foundDescription)")
        }
        if members.contains(where: { $0.key == "ids" }) {
            throw Self.invalid("/filters/ids", "filtering by serve event ids is not supported; filter by urlPathPattern, method or headers")
        }
        allowNonProxied = try Self.bool(filters, "allowNonProxied", at: "/filters/allowNonProxied") ?? false
        let pattern = JSONValue.object(members.filter { $0.key != "allowNonProxied" })
        do {
            let (decoded, warnings) = try MappingDecoder().decodeRequestPattern(pattern)
            for warning in warnings { log.write("stubserver: admin: recordings: filters: \(warning)") }
            spec.filter = decoded
        } catch {
            let inner = AdminError.invalid(error, title: "Invalid recording filters")
            throw AdminError(status: inner.status, code: inner.code, title: inner.title, detail: "filters: " + inner.detail,
                             pointer: "/filters" + (inner.pointer ?? ""))
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
        throw invalid("/extractBodyCriteria/\(key)", "expected a byte count such as \"2048\", found \(value.foundDescription)")
    }

    static func invalid(_ pointer: String, _ detail: String) -> AdminError {
        let field = pointer.isEmpty ? "body" : pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).joined(separator: ".")
        return AdminError(status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid recording spec",
                          detail: "\(field): \(detail)", pointer: pointer.isEmpty ? "/" : pointer)
    }
}
