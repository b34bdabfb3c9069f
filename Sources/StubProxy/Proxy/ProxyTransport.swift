import StubHTTP
import StubModel

/// How an exchange ends: the upstream's answer, or why there is none. Called once, on another thread.
package typealias ProxyCompletion = @Sendable (Result<HTTPResponse, ProxyFailure>) -> Void

/// Carries forwarded requests to their upstreams and back: the seam between the server, which needs
/// no more than FoundationEssentials, and an HTTP client.
///
/// The default build forwards with ``ProxyClient`` (`URLSession`: FoundationNetworking and libcurl on
/// Linux). A build with the `Slim` package trait (the Docker image's) links neither, and forwards with
/// ``UnavailableProxyTransport``: every forwarded request gets a 502 saying how to get a build that proxies.
package protocol ProxyTransport: Sendable {
    /// Timeout and size limit of every exchange.
    var settings: ProxySettings { get }
    /// Forwards `request` as `definition` says, without waiting for the network; `completion` runs once.
    func forward(_ request: StubHTTPRequest, via definition: ProxyDefinition, completion: @escaping ProxyCompletion)
    /// Ends every exchange in flight (their clients get a 502). Idempotent.
    func shutdown()
}

extension ProxySettings {
    /// Whether this build forwards requests (proxy stubs, `--proxy-all`, recording): `false` in a build
    /// with the `Slim` trait, whose proxy stubs answer 502 with ``unavailableReason``.
    package static var isForwardingAvailable: Bool {
        #if Slim
            false
        #else
            true
        #endif
    }

    /// Why this build does not forward requests, and how to get one that does.
    package static let unavailableReason = """
        this stubserver was built without proxying (the Slim package trait, as in the Docker image: no \
        URLSession, curl or ICU); for proxying and recording, build it without that trait \
        (swift build -c release --product stubserver) or the image with docker build --build-arg TRAITS= …
        """
}
