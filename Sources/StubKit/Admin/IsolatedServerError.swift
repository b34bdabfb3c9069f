/// Why ``StubServer/makeIsolatedServer(name:stubs:)`` (or `POST /__admin/servers`) started no server.
public struct IsolatedServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// ``StubServer/Configuration/maxIsolatedServers`` are running already (the admin API answers 429).
        case limitReached
        /// The server allows none (``StubServer/Configuration/maxIsolatedServers`` is 0) or is itself an
        /// isolated server (the admin API answers 403).
        case notAllowed
        /// The server is stopping (the admin API answers 503).
        case stopping
        /// The stubs directory asked for is not one the server may load, or its stubs do not load (the admin
        /// API answers 422 naming the file and field).
        case invalidStubs
        /// The new server could not load its stubs or listen (the admin API answers 500).
        case cannotStart
    }

    /// What went wrong.
    public let kind: Kind
    /// What happened and what to do about it.
    public let description: String

    /// An error of `kind` saying `description`.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
