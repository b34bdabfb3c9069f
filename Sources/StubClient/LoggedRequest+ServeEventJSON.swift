import StubHTTP
import StubKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading journal entries back from the admin API's JSON (``StubServerClient``).
extension LoggedRequest {
    /// An entry from a serve event (`GET /__admin/requests`: `{"id", "request", "response", "wasMatched",
    /// "stubMapping", "timing"}`) or a bare logged request (`POST /__admin/requests/find`).
    /// - Parameter position: the id to use when the event's id is not one of this server's (WireMock's UUIDs).
    init(adminJSON json: JSONValue, position: Int) throws(LoggedRequestDecodingError) {
        let requestJSON = json["request"] ?? json
        var request = try StubHTTPRequest(loggedRequestJSON: requestJSON)
        if let virtualHost = requestJSON["virtualHost"]?.stringValue, let port = requestJSON["port"]?.intValue {
            // Only what the admin JSON keeps of the connection: the client's address, the virtual host, its port.
            request.endpoints = HTTPEndpoints(
                remoteAddress: requestJSON["clientIp"]?.stringValue ?? "", localAddress: "", localPort: port,
                listenerLabel: virtualHost)
        }
        let millis = requestJSON["loggedDate"]?.doubleValue ?? 0
        var matchedStub: MatchedStub?
        if json["wasMatched"] == .bool(true), let stub = json["stubMapping"], let stubID = stub["id"]?.stringValue {
            let name = stub["name"]?.stringValue
            matchedStub = MatchedStub(id: stubID, name: name, displayName: name ?? stubID)
        }
        let status = json["response"]?["status"]?.intValue ?? json["responseDefinition"]?["status"]?.intValue ?? 0
        var response: HTTPResponse?
        if let responseJSON = json["response"], status > 0 {
            let headers =
                (try? StubHTTPRequest(
                    loggedRequestJSON: .object([("url", "/"), ("headers", responseJSON["headers"] ?? .object([]))])))?
                .headers
            var body: [UInt8] = []
            if let encoded = responseJSON["bodyAsBase64"]?.stringValue, let bytes = try? Base64.decode(encoded) {
                body = bytes
            } else if let text = responseJSON["body"]?.stringValue {
                body = Array(text.utf8)
            }
            response = HTTPResponse(status: StubHTTPStatus(code: status), headers: headers ?? [:], body: body)
        }
        func millisDuration(_ key: String) -> Duration {
            .milliseconds(json["timing"]?[key]?.intValue ?? 0)
        }
        self.init(
            id: json["id"]?.stringValue.flatMap(Self.sequenceNumber(fromAdminID:)) ?? position,
            receivedAt: Date(timeIntervalSince1970: millis / 1000), request: request, matchedStub: matchedStub,
            responseStatus: status, response: response,
            timing: ServeTiming(processTime: millisDuration("processTime"), addedDelay: millisDuration("addedDelay")),
            originalBodyLength: request.body.count,
            originalResponseBodyLength: max(
                response?.body.count ?? 0,
                json["response"]?["originalBodyLength"]?.intValue ?? 0),
            journalCost: 0,
            fault: json["response"]?["fault"]?.stringValue.flatMap(ResponseFault.init(rawValue:)))
    }
}

extension MatchResult {
    /// A near miss's `matchResult`: WireMock's `distance`, and stubserver's `mismatches` when present.
    init(adminJSON json: JSONValue) {
        let distance = json["distance"]?.doubleValue ?? 1
        var mismatches: [Mismatch] = []
        if case .array(let items)? = json["mismatches"] {
            for item in items {
                let actual: [String] =
                    if case .array(let values)? = item["actual"] { values.compactMap(\.stringValue) } else { [] }
                let details: [String] =
                    if case .array(let lines)? = item["details"] { lines.compactMap(\.stringValue) } else { [] }
                mismatches.append(
                    Mismatch(
                        part: Mismatch.Part(described: item["part"]?.stringValue ?? ""),
                        expected: item["expected"]?.stringValue ?? "",
                        actual: actual,
                        distance: item["distance"]?.doubleValue ?? 0, details: details))
            }
        }
        if mismatches.isEmpty, distance > 0 {
            // WireMock gives only a distance: keep the result a miss.
            mismatches.append(
                Mismatch(
                    part: .url, expected: "a match (the server gave only a distance)", actual: [],
                    distance: distance))
        }
        self.init(distance: distance, mismatches: mismatches)
    }
}

extension Mismatch.Part {
    /// The part a ``description`` names (`header "Accept"` → `.header("Accept")`); `.url` if unknown.
    init(described text: String) {
        func quoted(after prefix: String) -> String? {
            guard text.hasPrefix(prefix + " \""), text.hasSuffix("\""), text.count >= prefix.count + 3 else {
                return nil
            }
            return String(text.dropFirst(prefix.count + 2).dropLast())
        }
        switch text {
        case "method": self = .method
        case "basic auth": self = .basicAuth
        case "body": self = .body
        case "scheme": self = .scheme
        case "host": self = .host
        case "port": self = .port
        case "client IP": self = .clientIp
        default:
            if let name = quoted(after: "query") {
                self = .queryParameter(name)
            } else if let name = quoted(after: "header") {
                self = .header(name)
            } else if let name = quoted(after: "cookie") {
                self = .cookie(name)
            } else if let name = quoted(after: "form parameter") {
                self = .formParameter(name)
            } else if text.hasPrefix("GraphQL ") {
                self = .graphQL(String(text.dropFirst("GraphQL ".count)))
            } else {
                self = .url
            }
        }
    }
}
