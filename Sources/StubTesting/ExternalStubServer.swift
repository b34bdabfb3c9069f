import Foundation

/// Where `setUpStubServer(stubs:configuration:failOnUnmatchedRequests:failOnUnusedStubs:external:file:line:)`
/// and the `.stubServer` trait look for a stub server that runs outside the test process (a container
/// or a CLI started by CI). When one is found, the test gets a ``StubServerClient`` to it, reset,
/// instead of a server started in-process.
///
/// ```swift
/// // CI: STUBSERVER_URL=http://127.0.0.1:8080 swift test   → every test talks to that server
/// @Suite(.stubServer(stubsNamed: "Stubs"))                   // external: .environment (the default)
/// @Suite(.stubServer(stubsNamed: "Stubs", external: .never)) // always in-process (closure stubs, …)
/// ```
public struct ExternalStubServer: Sendable {
    /// `STUBSERVER_URL`: the variable ``environment`` reads.
    public static let environmentVariable = "STUBSERVER_URL"

    /// `STUBSERVER_ADMIN_TOKEN`: the admin token sent as `Authorization: Bearer …` to a server started
    /// with `--admin-token` (needed with `--host 0.0.0.0`, e.g. for a device), read from the same place.
    public static let adminTokenVariable = "STUBSERVER_ADMIN_TOKEN"

    /// `STUBSERVER_ISOLATE`: when `1` (or `true`, `yes`), each test gets an isolated server of its own from the
    /// external one (`POST /__admin/servers`), deleted after it, instead of sharing the external server.
    public static let isolateVariable = "STUBSERVER_ISOLATE"

    private let lookUp: @Sendable (String) -> String?

    private init(_ lookUp: @escaping @Sendable (String) -> String?) { self.lookUp = lookUp }

    /// `STUBSERVER_URL` in this process's environment, read when each test starts; unset or empty
    /// means in-process. The default.
    public static var environment: ExternalStubServer {
        ExternalStubServer { ProcessInfo.processInfo.environment[$0] }
    }

    /// `STUBSERVER_URL` in `variables` (for a test runner that passes its own environment).
    public static func environment(_ variables: [String: String]) -> ExternalStubServer {
        ExternalStubServer { variables[$0] }
    }

    /// Always the server at `url` (`http://HOST:PORT`), with `adminToken` when it was started with one.
    /// - Parameters:
    ///   - url: the server's base URL.
    ///   - adminToken: the token it was started with (`--admin-token`), if any.
    ///   - isolated: give each test an isolated server of its own from it (see ``isolates``).
    public static func url(_ url: URL, adminToken: String? = nil, isolated: Bool = false) -> ExternalStubServer {
        ExternalStubServer { name in
            switch name {
            case environmentVariable: url.absoluteString
            case adminTokenVariable: adminToken
            case isolateVariable: isolated ? "1" : nil
            default: nil
            }
        }
    }

    /// Never an external server: always start one in-process, whatever the environment says.
    public static var never: ExternalStubServer { ExternalStubServer { _ in nil } }

    /// The external server's base URL, or `nil` for in-process.
    /// - Throws: ``ExternalStubServerError`` when the value is not an `http://HOST:PORT` URL.
    public func resolve() throws(ExternalStubServerError) -> URL? {
        guard let text = lookUp(Self.environmentVariable)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw ExternalStubServerError(
                description: "\(Self.environmentVariable)='\(text)' is not a server URL; "
                    + "set it to http://HOST:PORT, or unset it to start a server in-process")
        }
        return url
    }

    /// Whether each test gets an isolated server of its own from the external server (`POST /__admin/servers`:
    /// its own port, stubs, journal and scenarios, loaded from the external server's stubs directory), deleted
    /// when the test ends: `STUBSERVER_ISOLATE=1`, or `url(_:adminToken:isolated:)`. Tests then run in parallel
    /// without seeing each other's requests or scenario states; without it they take turns on the shared server.
    /// The `.stubServer` trait and `setUpStubServer` (XCTest) honour it.
    public var isolates: Bool {
        switch lookUp(Self.isolateVariable)?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true", "yes": true
        default: false
        }
    }

    /// The headers every admin call sends: `Authorization: Bearer TOKEN` when `STUBSERVER_ADMIN_TOKEN`
    /// (or the token given to ``url(_:adminToken:isolated:)``) is set, else none.
    public var adminHeaders: [String: String] {
        guard let token = lookUp(Self.adminTokenVariable)?.trimmingCharacters(in: .whitespaces), !token.isEmpty else {
            return [:]
        }
        return ["Authorization": "Bearer \(token)"]
    }
}

/// The external stub server could not be used: a bad `STUBSERVER_URL`, or the server did not answer the reset.
public struct ExternalStubServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and what to do.
    public let description: String
}
