import StubModel

#if !Slim && canImport(Glibc)
    import Glibc
    import StubHTTP

    /// `https://` upstreams on Linux: forwarded through libcurl's multi interface, driven by the
    /// ``CurlPoller`` (URLSession on Linux spins a core while an upstream is silent). Used when libcurl
    /// can be loaded (``CurlPoller/isAvailable``); otherwise `https://` stays with URLSession.
    extension ProxyClient {
        /// Forwards `request` to the `https://` URL `upstream`, as `definition` says; `completion` runs once.
        func forwardTLS(
            _ request: StubHTTPRequest, upstream: String, via definition: ProxyDefinition,
            completion: @escaping Completion
        ) {
            let (fail, finish) = Self.endings(of: request, upstream: upstream, completion: completion)
            guard
                let exchange = CurlExchange(
                    url: Self.withoutFragment(upstream), method: request.method.rawValue,
                    headers: definition.forwardedHeaders(for: request), body: request.body,
                    timeout: settings.timeout, maxBodyBytes: settings.maxResponseBytes,
                    completion: finish)
            else { return }
            if !curl.add(exchange) {
                fail(.unreachable("the server is stopping, or too many upstream requests are in flight"))
            }
        }

        /// `upstream` without its `#fragment`, which is never sent.
        static func withoutFragment(_ upstream: String) -> String {
            upstream.firstIndex(of: "#").map { String(upstream[..<$0]) } ?? upstream
        }
    }

    extension CurlExchange {
        /// What went wrong, in words, for the 502's body, from libcurl's result `code`, its `message` (the
        /// error buffer) and the system's `osErrno` for the connection (0 if none).
        static func reason(_ code: Int32, message: String, osErrno: Int32) -> String {
            let detail = "\(message) (curl error \(code))"
            switch code {
            case 6: return "unknown host: \(detail)"  // CURLE_COULDNT_RESOLVE_HOST
            case 7 where osErrno == ECONNREFUSED: return "connection refused: \(detail)"  // CURLE_COULDNT_CONNECT
            case 8: return "not a valid HTTP response: \(detail)"  // CURLE_WEIRD_SERVER_REPLY
            case 18, 52, 55, 56:  // PARTIAL_FILE, GOT_NOTHING, SEND/RECV_ERROR
                return "the connection closed before a complete answer: \(detail)"
            case 35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98:  // SSL_CONNECT_ERROR … SSL_CLIENTCERT
                let lowered = message.lowercased()
                let untrusted =
                    lowered.contains("issuer certificate") || lowered.contains("self-signed")
                    || lowered.contains("self signed")
                return "TLS failure: \(detail)" + (untrusted ? "; \(ProxyClient.untrustedHint)" : "")
            default:
                return ProxyClient.isTLSMessage(message) ? "TLS failure: \(detail)" : detail
            }
        }
    }
#endif
