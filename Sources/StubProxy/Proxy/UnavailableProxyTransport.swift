import StubHTTP
import StubModel

/// The transport of a build without proxying (the `Slim` trait): every exchange fails at once with a
/// 502 whose body says proxying is not in this build and how to get a build with it.
struct UnavailableProxyTransport: ProxyTransport {
    let settings: ProxySettings

    func forward(_ request: StubHTTPRequest, via definition: ProxyDefinition, completion: @escaping ProxyCompletion) {
        completion(
            .failure(
                ProxyFailure(
                    kind: .unavailable, upstreamURL: definition.upstreamURL(for: request),
                    request: "\(request.method) \(request.pathAndQuery)")))
    }

    func shutdown() {}
}
