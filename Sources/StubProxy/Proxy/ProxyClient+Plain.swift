import StubModel

#if !Slim
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import StubHTTP

    /// `http://` upstreams: forwarded over a connection of our own, driven by the ``UpstreamPoller`` (no
    /// URLSession: on Linux it spins a core while an upstream is silent). `https://` has its own transport on
    /// Linux (`forwardTLS(_:upstream:via:completion:)`) and URLSession elsewhere.
    extension ProxyClient {
        /// Forwards `request` to the plain-HTTP `url` (`upstream` as text); `completion` runs once.
        /// Resolves the host on the calling thread (a proxy worker, never an event loop).
        func forwardPlain(
            _ request: StubHTTPRequest, to url: URL, upstream: String, via definition: ProxyDefinition,
            completion: @escaping Completion
        ) {
            let (fail, finish) = Self.endings(of: request, upstream: upstream, completion: completion)
            guard let host = url.host, !host.isEmpty else { return fail(.badURL) }
            let addresses: [SocketAddress]
            switch UpstreamSocket.resolve(host: host, port: url.port ?? 80) {
            case .success(let found): addresses = found
            case .failure(let error): return fail(.unreachable(error.message))
            }
            let bytes = Self.requestBytes(
                request, target: Self.target(of: upstream), host: Self.hostField(host, port: url.port),
                definition: definition)
            guard
                let exchange = UpstreamExchange(
                    addresses: addresses, request: bytes, isHeadRequest: request.method == .head,
                    maxBodyBytes: settings.maxResponseBytes, timeout: settings.timeout,
                    completion: finish)
            else { return }
            if !poller.add(exchange) {
                exchange.close()
                fail(.unreachable("the server is stopping, or too many upstream requests are in flight"))
            }
        }

        /// The request target of `upstream` (`http://host:port/path?query` → `/path?query`), fragment dropped.
        static func target(of upstream: String) -> String {
            guard let schemeEnd = upstream.range(of: "://") else { return "/" }
            var rest = upstream[schemeEnd.upperBound...]
            if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
            guard let start = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            let target = String(rest[start...])
            return target.hasPrefix("?") ? "/" + target : target
        }

        /// `Host`: `name`, `name:port`, `[::1]:port`.
        static func hostField(_ host: String, port: Int?) -> String {
            let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            return port.map { "\(name):\($0)" } ?? name
        }

        /// The request as sent: the client's fields as ``ProxyDefinition/forwardedHeaders(for:)`` says, our
        /// `Host`, `Accept-Encoding: identity` (bodies are passed on as they come), `Content-Length`, and
        /// `Connection: close`. A field with CR or LF in it (from a stub file) is left out, never sent.
        static func requestBytes(_ request: StubHTTPRequest, target: String, host: String, definition: ProxyDefinition)
            -> [UInt8]
        {
            var head = "\(request.method.rawValue) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
            let isSafe = { (text: String) in !text.utf8.contains(13) && !text.utf8.contains(10) }
            for field in definition.forwardedHeaders(for: request)
            where !StubHTTPHeaders.equalsIgnoringCase(field.name, "Accept-Encoding") && isSafe(field.name)
                && isSafe(field.value)
            {
                head += "\(field.name): \(field.value)\r\n"
            }
            head += "Accept-Encoding: identity\r\n"
            if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method.rawValue) {
                head += "Content-Length: \(request.body.count)\r\n"
            }
            head += "Connection: close\r\n\r\n"
            return Array(head.utf8) + request.body
        }

        /// The two ways an exchange of our own (``UpstreamExchange``, `CurlExchange`) forwarding `request` to
        /// `upstream` ends, through `completion`: `fail` with a ``ProxyFailure`` naming both, `finish` with the
        /// exchange's outcome.
        static func endings(of request: StubHTTPRequest, upstream: String, completion: @escaping Completion) -> (
            fail: @Sendable (ProxyFailure.Kind) -> Void, finish: @Sendable (UpstreamExchange.Outcome) -> Void
        ) {
            let label = "\(request.method) \(request.pathAndQuery)"
            let fail = { @Sendable (kind: ProxyFailure.Kind) in
                completion(.failure(ProxyFailure(kind: kind, upstreamURL: upstream, request: label)))
            }
            let finish = { @Sendable (outcome: UpstreamExchange.Outcome) in
                switch outcome {
                case .answered(let response): completion(.success(response))
                case .failed(let kind): fail(kind)
                }
            }
            return (fail, finish)
        }
    }
#endif
