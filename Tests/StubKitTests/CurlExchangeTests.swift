#if !Slim && canImport(Glibc)
    import Glibc
    import Testing
    @testable import StubKit
    @testable import StubProxy
    import StubHTTP

    /// The pure parts of the libcurl transport for `https://` upstreams (Linux): the request's header lines,
    /// the answer's fields passed on, and the 502's reason for libcurl's result codes.
    @Suite("libcurl exchanges")
    struct CurlExchangeTests {
        @Test("Request fields become libcurl lines; Accept-Encoding is libcurl's, CR/LF fields are left out")
        func headerLines() {
            let headers = StubHTTPHeaders([
                ("X-Test", "a b"), ("Accept-Encoding", "br"), ("X-Empty", ""), ("X-Bad", "a\r\nInjected: 1")
            ])
            #expect(CurlExchange.headerLines(headers) == ["X-Test: a b", "X-Empty;"])
        }

        @Test("Answer fields keep their order, duplicates and Date, less hop-by-hop and an inflated Content-Encoding")
        func passedOn() {
            let fields: [(name: String, value: String)] = [
                ("Set-Cookie", "a=1"), ("Date", "today"), ("Content-Encoding", "gzip"), ("Content-Length", "12"),
                ("Connection", "keep-alive"), ("Set-Cookie", "b=2"), ("Content-Type", "text/plain")
            ]
            #expect(
                Array(CurlExchange.passedOn(fields)).map { [$0.name, $0.value] }
                    == [["Set-Cookie", "a=1"], ["Date", "today"], ["Set-Cookie", "b=2"], ["Content-Type", "text/plain"]]
            )
            #expect(
                Array(CurlExchange.passedOn([("Content-Encoding", "br")])).map(\.value) == ["br"], "not inflated: kept")
        }

        @Test(
            "libcurl's result codes become reasons that name refusals, hosts and TLS",
            arguments: [
                (7, "Failed to connect", ECONNREFUSED, "connection refused: Failed to connect (curl error 7)"),
                (6, "Could not resolve host: x", 0, "unknown host: Could not resolve host: x (curl error 6)"),
                (
                    52, "Empty reply from server", 0,
                    "the connection closed before a complete answer: Empty reply from server (curl error 52)"
                ),
                (
                    35, "OpenSSL SSL_connect: Connection reset by peer", 0,
                    "TLS failure: OpenSSL SSL_connect: Connection reset by peer (curl error 35)"
                ),
                (
                    60, "SSL: no alternative certificate subject name matches target host name 'x'", 0,
                    "TLS failure: SSL: no alternative certificate subject name matches target host name 'x' (curl error 60)"
                )
            ] as [(Int32, String, Int32, String)])
        func reason(_ code: Int32, _ message: String, _ osErrno: Int32, _ expected: String) {
            #expect(CurlExchange.reason(code, message: message, osErrno: osErrno) == expected)
        }

        @Test("A certificate from an unknown authority gets the hint about the trust store")
        func untrusted() {
            let reason = CurlExchange.reason(
                60, message: "SSL certificate problem: unable to get local issuer certificate", osErrno: 0)
            #expect(
                reason.hasPrefix(
                    "TLS failure: SSL certificate problem: unable to get local issuer certificate (curl error 60); "))
            #expect(reason.hasSuffix(ProxyClient.untrustedHint))
        }
    }
#endif
