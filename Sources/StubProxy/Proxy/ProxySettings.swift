import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a server forwards requests: to where for requests no stub matches, how long it waits, and
/// how much it takes back.
///
/// ```swift
/// var configuration = StubServer.Configuration()
/// configuration.proxy.target = URL(string: "https://api.github.com")   // --proxy-all
/// configuration.proxy.timeout = .seconds(5)                            // --proxy-timeout 5000
/// ```
public struct ProxySettings: Sendable, Hashable {
    /// Where requests that no stub matches are forwarded (`--proxy-all`, as WireMock's); stubs still
    /// win. Default `nil`: they get a 404.
    public var target: URL?
    /// The longest wait for an upstream's complete answer; beyond it the client gets a 504. Default 30 s.
    public var timeout: Duration = .seconds(30)
    /// The largest upstream response body taken, in bytes; a larger one is cut off and the client
    /// gets a 502. Default 64 MiB (the engine's request body limit).
    public var maxResponseBytes: Int = 64 * 1024 * 1024

    public init(target: URL? = nil, timeout: Duration = .seconds(30), maxResponseBytes: Int = 64 * 1024 * 1024) {
        self.target = target
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }

    /// The proxy definition that `--proxy-all` stands for.
    package var proxyAll: ProxyDefinition? {
        target.map { ProxyDefinition(baseURL: $0.absoluteString) }
    }
}
