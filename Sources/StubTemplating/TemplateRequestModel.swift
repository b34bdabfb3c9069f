import StubHTTP
import StubMatching
import StubModel

/// WireMock's `request` model for one request, each part computed on first use: `url`, `path`,
/// `pathSegments`, `query`, `headers` (case-insensitive names), `cookies`, `method`, `body`, `baseUrl`,
/// `host`, `port`, `scheme`, `requestLine`, and the named parameters of a `urlPathTemplate` (`request.path.username`).
/// Lives for one evaluation on one thread (not `Sendable`).
final class TemplateRequestModel {
    enum FieldKind { case query, headers, cookies }

    let request: StubHTTPRequest
    let pathParameters: [String: String]
    /// `http://host:port` of the server, for requests without a `Host` header.
    private let serverOrigin: String

    init(_ request: StubHTTPRequest, pathParameters: [String: String] = [:], serverOrigin: String) {
        self.request = request
        self.pathParameters = pathParameters
        self.serverOrigin = serverOrigin
    }

    /// Path and query as sent; a bare trailing `?` is dropped (as WireMock 2.35.1).
    private(set) lazy var url: String = {
        let pathAndQuery = request.pathAndQuery
        return String(pathAndQuery.hasSuffix("?") ? pathAndQuery.dropLast() : pathAndQuery)
    }()

    /// The percent-decoded path.
    private(set) lazy var path: String = request.path

    /// The decoded non-empty segments of the path.
    private(set) lazy var segments: [String] = request.rawPath.split(separator: "/").map {
        PercentDecoding.decode($0, plusAsSpace: false)
    }

    private(set) lazy var query: [(name: String, values: [String])] = request.queryItems.valuesByName(\.name, \.value)

    private(set) lazy var cookies: [(name: String, values: [String])] = {
        let parsed = RequestContext.parseCookies(request.headers["Cookie"])
        return parsed.keys.sorted().map { ($0, parsed[$0] ?? []) }
    }()

    private(set) lazy var bodyText: String = String(decoding: request.body, as: UTF8.self)

    /// The body parsed as JSON, once; nil when it is not JSON.
    private(set) lazy var bodyJSON: JSONValue? = request.body.isEmpty ? nil : try? JSONParser.parse(request.body)

    /// `http://` (`https://` over TLS) + the `Host` header, else the server's own address (WireMock 2.35.1 uses
    /// the `Host` header). On a virtual host's port, the scheme + the virtual host's name and the port
    /// (`http://api.example.com:53127`).
    var baseURL: String {
        let scheme = request.endpoints?.isSecure == true ? "https://" : "http://"
        if let virtualHost = RequestContext.virtualHost(of: request), let port = request.endpoints?.localPort {
            return "\(scheme)\(virtualHost):\(port)"
        }
        guard let host = request.headers.first(name: "Host"), !host.isEmpty else {
            guard scheme == "https://", let port = request.endpoints?.localPort else { return serverOrigin }
            let local = request.endpoints?.localAddress ?? "127.0.0.1"
            return "https://\(local.contains(":") ? "[\(local)]" : local):\(port)"
        }
        return scheme + host
    }

    func member(_ name: String) -> TemplateValue {
        switch name {
        case "url": .string(url)
        case "path", "pathSegments": .path(self)
        case "method": .string(request.method.rawValue)
        case "body": .body(self)
        case "baseUrl": .string(baseURL)
        // WireMock 2.35.1's request.host, request.port and request.scheme: what `host`, `port` and `scheme` match.
        case "host": RequestContext.authority(of: request).host.map(TemplateValue.string) ?? .missing
        case "port": RequestContext.authority(of: request).port.map(TemplateValue.integer) ?? .missing
        case "scheme": .string(RequestContext.scheme(of: request))
        case "query": .fields(self, .query)
        case "headers": .fields(self, .headers)
        case "cookies": .fields(self, .cookies)
        case "requestLine": requestLine
        default: .missing
        }
    }

    /// WireMock's `request.requestLine`: `method`, `scheme`, `host`, `port`, `path`, `pathSegments`, `url`,
    /// `query` and `baseUrl` of the request line, each read as the `request` model reads it.
    private var requestLine: TemplateValue {
        .map(
            ["method", "scheme", "host", "port", "path", "pathSegments", "url", "query", "baseUrl"].map {
                ($0, member($0))
            })
    }

    /// The values of field `name`; header names are case-insensitive, query and cookie names are not.
    func values(_ kind: FieldKind, _ name: String) -> [String]? {
        switch kind {
        case .query: return query.first { $0.name == name }?.values
        case .cookies: return cookies.first { $0.name == name }?.values
        case .headers:
            let values = request.headers[name]
            return values.isEmpty ? nil : values
        }
    }

    func fieldNames(_ kind: FieldKind) -> [String] {
        switch kind {
        case .query: return query.map(\.name)
        case .cookies: return cookies.map(\.name)
        case .headers:
            var seen: [String] = []
            for field in request.headers where !seen.contains(where: { $0.caseInsensitiveEquals(field.name) }) {
                seen.append(field.name)
            }
            return seen
        }
    }

    /// How Java prints the map: `{a=[1], b=[2]}`.
    func fieldsDescription(_ kind: FieldKind) -> String {
        "{"
            + fieldNames(kind).map { "\($0)=[\((values(kind, $0) ?? []).joined(separator: ", "))]" }.joined(
                separator: ", ") + "}"
    }
}

extension String {
    /// ASCII case-insensitive equality (header names).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count
            && zip(utf8, other.utf8).allSatisfy { a, b in
                a == b || (a | 0x20 == b | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(a | 0x20))
            }
    }
}
