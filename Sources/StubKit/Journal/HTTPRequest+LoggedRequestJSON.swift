import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading a request back from WireMock's `LoggedRequest` JSON: what `POST /__admin/near-misses/request`
/// takes and what the admin API's serve events hold.
extension StubHTTPRequest {
    /// Builds the request `{"url": "/x?q=1", "method": "GET", "headers": {"Accept": "…"}, "body": "…"}`
    /// describes. `bodyAsBase64` wins over `body`; a header may have one value or an array of them;
    /// `method` defaults to `GET`.
    /// - Throws: ``LoggedRequestDecodingError`` naming the field at fault.
    public init(loggedRequestJSON json: JSONValue) throws(LoggedRequestDecodingError) {
        guard case .object = json else {
            throw LoggedRequestDecodingError(
                field: "", message: "expected a request object, found \(json.foundDescription)")
        }
        guard let url = json["url"]?.stringValue, url.hasPrefix("/") else {
            throw LoggedRequestDecodingError(
                field: "url",
                message:
                    "expected a path such as \"/users/octocat\", found \(json["url"]?.foundDescription ?? "nothing")")
        }
        var method = "GET"
        if let value = json["method"] {
            guard let name = value.stringValue, !name.isEmpty, name.utf8.allSatisfy(MappingDecoder.Run.isTokenByte)
            else {
                throw LoggedRequestDecodingError(
                    field: "method", message: "expected a method such as \"GET\", found \(value.foundDescription)")
            }
            method = name == "ANY" ? "GET" : name
        }
        var headers = StubHTTPHeaders()
        if let value = json["headers"] {
            guard case .object(let members) = value else {
                throw LoggedRequestDecodingError(
                    field: "headers", message: "expected an object, found \(value.foundDescription)")
            }
            for (name, values) in members {
                switch values {
                case .string(let text): headers.add(name: name, value: text)
                case .array(let items):
                    for item in items {
                        guard let text = item.stringValue else {
                            throw LoggedRequestDecodingError(
                                field: "headers/\(name)", message: "expected strings, found \(item.foundDescription)")
                        }
                        headers.add(name: name, value: text)
                    }
                case .null, .bool, .number, .object:
                    throw LoggedRequestDecodingError(
                        field: "headers/\(name)",
                        message: "expected a string or an array of strings, found \(values.foundDescription)")
                }
            }
        }
        var body: [UInt8] = []
        if let encoded = json["bodyAsBase64"]?.stringValue, !encoded.isEmpty {
            do { body = try Base64.decode(encoded) } catch {
                throw LoggedRequestDecodingError(field: "bodyAsBase64", message: "not valid base64")
            }
        } else if let text = json["body"]?.stringValue {
            body = Array(text.utf8)
        }
        self.init(method: StubHTTPMethod(method), target: url, headers: headers, body: body)
    }
}

/// A logged request's JSON that does not describe a request.
public struct LoggedRequestDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field at fault, as a JSON pointer without the leading `/` (`url`, `headers/Accept`).
    public let field: String
    public let message: String

    /// `url: expected a path such as "/users/octocat", found 42`
    public var description: String { field.isEmpty ? message : "\(field.replacing("/", with: ".")): \(message)" }
}
