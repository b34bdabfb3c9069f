import StubModel

#if !Slim
    import Foundation
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    import StubHTTP

    /// The session's callbacks: gather the answer, bounded in bytes, and hand it over once complete.
    /// Completion handlers are called before returning, never stored.
    extension ProxyClient: URLSessionDataDelegate {
        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            _ = withExchange(dataTask.taskIdentifier) { $0.response = response as? HTTPURLResponse }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let limit = settings.maxResponseBytes
            let fits = withExchange(dataTask.taskIdentifier) { exchange -> Bool in
                guard exchange.body.count + data.count <= limit else { return false }
                exchange.body.append(data)
                return true
            }
            if fits == false { end(dataTask.taskIdentifier, because: .tooLarge(limit)) }
        }

        /// Redirects go back to the client, as WireMock returns them.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let exchange = remove(task.taskIdentifier) else { return }
            let failure = { (kind: ProxyFailure.Kind) in
                ProxyFailure(kind: kind, upstreamURL: exchange.upstreamURL, request: exchange.request)
            }
            if let kind = exchange.failure {
                return exchange.completion(.failure(failure(kind)))
            }
            if let error {
                let kind: ProxyFailure.Kind =
                    (error as? URLError)?.code == .timedOut
                    ? .timedOut(settings.timeout) : .unreachable(Self.reason(error))
                return exchange.completion(.failure(failure(kind)))
            }
            guard let response = exchange.response else {
                return exchange.completion(.failure(failure(.unreachable("no HTTP response"))))
            }
            exchange.completion(
                .success(
                    HTTPResponse(
                        status: StubHTTPStatus(code: response.statusCode),
                        headers: Self.headers(of: response), body: [UInt8](exchange.body))))
        }

        /// The upstream's header fields to pass on: all but hop-by-hop and framing fields (its `Date` too, which
        /// the engine then does not add), sorted by name (Foundation keeps them in a dictionary), without
        /// `Content-Encoding` for the codings it inflated.
        static func headers(of response: HTTPURLResponse) -> StubHTTPHeaders {
            var fields: [(String, String)] = []
            for (key, value) in response.allHeaderFields {
                guard let name = key as? String, let value = value as? String, !ProxyDefinition.isHopByHop(name)
                else { continue }
                if StubHTTPHeaders.equalsIgnoringCase(name, "Content-Encoding"),
                    ["gzip", "x-gzip", "deflate"].contains(value.lowercased().trimmingCharacters(in: .whitespaces))
                {
                    continue
                }
                fields.append((name, value))
            }
            fields.sort { $0.0.lowercased() < $1.0.lowercased() }
            return StubHTTPHeaders(fields)
        }

        /// What went wrong, in words, for the 502's body.
        static func reason(_ error: any Error) -> String {
            guard let urlError = error as? URLError else { return "\(error)" }
            let code = urlError.code.rawValue
            switch urlError.code {
            case .cannotConnectToHost: return "connection refused (URLError \(code))"
            case .cannotFindHost, .dnsLookupFailed: return "unknown host (URLError \(code))"
            case .networkConnectionLost: return "the connection closed before a complete answer (URLError \(code))"
            case .cancelled: return "cancelled: the server is stopping (URLError \(code))"
            case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
                return "TLS failure: \(urlError.localizedDescription) (URLError \(code)); \(untrustedHint)"
            case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
                .clientCertificateRejected:
                return "TLS failure: \(urlError.localizedDescription) (URLError \(code))"
            case .badServerResponse: return "not a valid HTTP response (URLError \(code))"
            default:
                // On Linux, libcurl's TLS errors arrive as URLError -1 with curl's message.
                let message = urlError.localizedDescription
                guard isTLSMessage(message) else { return "\(message) (URLError \(code))" }
                let hint =
                    message.lowercased().contains("issuer certificate") || message.lowercased().contains("self-signed")
                    ? "; \(untrustedHint)" : ""
                return "TLS failure: \(message) (URLError \(code))\(hint)"
            }
        }

        /// What to do about an upstream certificate signed by an authority this machine does not trust.
        static let untrustedHint =
            "the upstream's certificate is not signed by an authority this machine trusts "
            + "(a private CA must be in the system trust store: the keychain on macOS, update-ca-certificates on Linux)"

        /// Whether libcurl's message (Linux) is about TLS: `SSL certificate problem: …`, `SSL connect error`.
        static func isTLSMessage(_ message: String) -> Bool {
            let lowered = message.lowercased()
            return lowered.hasPrefix("ssl") || lowered.contains("tls") || lowered.contains("certificate")
        }
    }
#endif
