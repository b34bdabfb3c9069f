import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An isolated server a ``StubServer`` started beside itself (``StubServer/makeIsolatedServer(name:stubs:)``,
/// `POST /__admin/servers`): what `GET /__admin/servers` lists.
///
/// ```json
/// {"id": "4f0c…", "name": "runner-3", "port": 50123, "baseUrl": "http://127.0.0.1:50123",
///  "adminUrl": "http://127.0.0.1:50123/__admin"}
/// ```
public struct IsolatedServerInfo: Sendable, Hashable {
    /// Its id: what `GET` and `DELETE /__admin/servers/{id}` take.
    public var id: String
    /// The name it was given, or one made up (`server-1`, `server-2`, …).
    public var name: String
    /// The port it listens on, on the same address as its parent.
    public var port: Int
    /// `http://HOST:PORT` as the server sees itself: what an app under test uses as its base URL.
    public var baseURL: URL
    /// `baseURL/__admin`: its own admin API (stubs, journal, scenarios, settings).
    public var adminURL: URL

    /// Describes a server.
    public init(id: String, name: String, port: Int, baseURL: URL, adminURL: URL) {
        self.id = id
        self.name = name
        self.port = port
        self.baseURL = baseURL
        self.adminURL = adminURL
    }

    /// The admin API's JSON for it.
    package var json: JSONValue {
        .object([
            ("id", .string(id)), ("name", .string(name)), ("port", JSONValue(port)),
            ("baseUrl", .string(baseURL.absoluteString)), ("adminUrl", .string(adminURL.absoluteString))
        ])
    }

    /// Reads the admin API's JSON; `nil` when a field is missing or of the wrong kind.
    package init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue, let name = json["name"]?.stringValue,
            let port = json["port"]?.intValue,
            let base = json["baseUrl"]?.stringValue.flatMap(URL.init(string:)),
            let admin = json["adminUrl"]?.stringValue.flatMap(URL.init(string:))
        else { return nil }
        self.init(id: id, name: name, port: port, baseURL: base, adminURL: admin)
    }
}
