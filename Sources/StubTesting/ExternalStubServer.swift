import Foundation

/// Where ``XCTestCase/setUpStubServer(stubs:configuration:failOnUnmatchedRequests:external:file:line:)``
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

    private let lookUp: @Sendable () -> String?

    private init(_ lookUp: @escaping @Sendable () -> String?) { self.lookUp = lookUp }

    /// `STUBSERVER_URL` in this process's environment, read when each test starts; unset or empty
    /// means in-process. The default.
    public static var environment: ExternalStubServer {
        ExternalStubServer { ProcessInfo.processInfo.environment[environmentVariable] }
    }

    /// `STUBSERVER_URL` in `variables` (for a test runner that passes its own environment).
    public static func environment(_ variables: [String: String]) -> ExternalStubServer {
        ExternalStubServer { variables[environmentVariable] }
    }

    /// Always the server at `url` (`http://HOST:PORT`).
    public static func url(_ url: URL) -> ExternalStubServer {
        ExternalStubServer { url.absoluteString }
    }

    /// Never an external server: always start one in-process, whatever the environment says.
    public static var never: ExternalStubServer { ExternalStubServer { nil } }

    /// The external server's base URL, or `nil` for in-process.
    /// - Throws: ``ExternalStubServerError`` when the value is not an `http://HOST:PORT` URL.
    public func resolve() throws(ExternalStubServerError) -> URL? {
        guard let text = lookUp()?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            throw ExternalStubServerError(description: "\(Self.environmentVariable)='\(text)' is not a server URL; "
                                          + "set it to http://HOST:PORT, or unset it to start a server in-process")
        }
        return url
    }
}

/// The external stub server could not be used: a bad `STUBSERVER_URL`, or the server did not answer the reset.
public struct ExternalStubServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong and what to do.
    public let description: String
}
