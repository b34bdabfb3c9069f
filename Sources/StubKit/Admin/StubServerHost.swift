import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One port a ``StubServer`` listens on: the primary one, or one virtual host's
/// (``StubServer/Configuration/virtualHosts``). What ``StubServer/hosts`` and `GET /__admin/hosts` list.
///
/// ```swift
/// for host in server.hosts {
///     print(host.name ?? "(primary)", host.baseURL)   // api.example.com http://127.0.0.1:53128
/// }
/// ```
public struct StubServerHost: Sendable, Hashable {
    /// The virtual host's name (lower-cased), or `nil` for the primary port, whose requests are matched by
    /// their `Host` header.
    public var name: String?
    /// The port it listens on.
    public var port: Int
    /// Where a client reaches it: `http://` + the server's address + ``port`` (`http://127.0.0.1:53128`), not the
    /// virtual host's name, which need not resolve.
    public var baseURL: URL
    /// The same over TLS, `https://…` on a port of its own, when the server serves HTTPS beside plain HTTP
    /// (``StubServer/Configuration/https``); else `nil`.
    public var httpsBaseURL: URL?

    /// Describes one listening port.
    public init(name: String?, port: Int, baseURL: URL, httpsBaseURL: URL? = nil) {
        self.name = name
        self.port = port
        self.baseURL = baseURL
        self.httpsBaseURL = httpsBaseURL
    }

    /// `{"name": "api.example.com", "port": 53128, "baseUrl": "http://127.0.0.1:53128"}` (`name` null for the
    /// primary port), and `"httpsBaseUrl"` with HTTPS beside plain HTTP.
    public var json: JSONValue {
        .object(
            [
                ("name", name.map(JSONValue.string) ?? .null),
                ("port", JSONValue(port)),
                ("baseUrl", .string(baseURL.absoluteString))
            ] + (httpsBaseURL.map { [("httpsBaseUrl", JSONValue.string($0.absoluteString))] } ?? []))
    }

    /// Reads one entry of `GET /__admin/hosts`; `nil` when `json` is not one.
    public init?(json: JSONValue) {
        guard let port = json["port"]?.intValue, let text = json["baseUrl"]?.stringValue, let url = URL(string: text)
        else { return nil }
        let name: String?
        switch json["name"] {
        case .string(let value)?: name = value
        case .null?, nil: name = nil
        case .bool?, .number?, .array?, .object?: return nil
        }
        let https = json["httpsBaseUrl"]?.stringValue.flatMap { URL(string: $0) }
        self.init(name: name, port: port, baseURL: url, httpsBaseURL: https)
    }
}

/// Where a server's ports are, known once it listens: `GET /__admin/hosts` reads it.
final class ListeningHosts: Sendable {
    private let storage = LockedValue<[StubServerHost]>([])

    /// The primary port first, then each virtual host's in configuration order; empty before the server starts.
    var all: [StubServerHost] { storage.withLock { $0 } }

    func set(_ hosts: [StubServerHost]) { storage.withLock { $0 = hosts } }
}
