/// WireMock's command-line options that stubserver does not serve, each with why and what to do instead: given one,
/// the server refuses to start with that message rather than ignore it (a compose file written for WireMock's image
/// fails loudly, never half works). The options stubserver does serve are in ``ServeOption/all``.
struct WireMockOption: Sendable {
    let names: [String]
    let reason: String

    init(_ names: String..., reason: String) {
        self.names = names
        self.reason = reason
    }

    static let unsupported: [WireMockOption] = [
        WireMockOption(
            "--container-threads", "--jetty-acceptor-threads", "--jetty-accept-queue-size",
            "--async-response-enabled", "--async-response-threads", "--jetty-idle-timeout", "--timeout",
            reason: "Jetty's threads, queues and timeouts; stubserver's event loops need none (--max-connections bounds"
                + " connections). Remove it"),
        WireMockOption(
            "--jetty-header-buffer-size", "--jetty-header-request-size", "--jetty-header-response-size",
            reason: "Jetty's header buffers; stubserver takes request heads up to 64 KiB. Remove it"),
        WireMockOption(
            "--extensions",
            reason: "Java extensions cannot run in stubserver. Use response templates, closure stubs"
                + " (in-process) or a proxy stub instead"),
        WireMockOption(
            "--proxy-via", "--preserve-host-header", "--proxy-pass-through",
            "--allow-proxy-targets", "--deny-proxy-targets", "--trust-all-proxy-targets", "--trust-proxy-target",
            reason: "not served: stubserver forwards with --proxy-all URL and proxy stubs (proxyBaseUrl)"),
        WireMockOption(
            "--record-mappings", "--match-headers",
            reason: "not served: record with `stubserver record --target URL`"),
        WireMockOption(
            "--https-keystore", "--keystore-password", "--keystore-type", "--key-manager-password", "--ca-keystore",
            "--ca-keystore-password", "--ca-keystore-type",
            reason: "Java keystores are not read: give --https-cert and --https-key (PEM), or --https-pkcs12"),
        WireMockOption(
            "--https-truststore", "--truststore-password", "--truststore-type", "--https-require-client-cert",
            reason: "client certificates are not checked by stubserver. Remove it"),
        WireMockOption("--disable-http", reason: "use --https-only (HTTPS on --https-port, no plain HTTP)"),
        WireMockOption(
            "--admin-api-basic-auth", "--admin-api-require-https",
            reason: "not served: protect the admin API with --admin-token (Authorization: Bearer)"),
        WireMockOption(
            "--enable-stub-cors", reason: "not served: add the Access-Control-Allow-* headers to the stubs' responses"),
        WireMockOption(
            "--print-all-network-traffic", "--disable-request-logging",
            reason: "not served: --verbose logs one line per request, /__admin/requests keeps them"),
        WireMockOption(
            "--use-chunked-encoding", "--disable-gzip", "--disable-http2-plain", "--disable-http2-tls",
            "--max-template-cache-entries", "--logged-response-body-size-limit", "--permitted-system-keys",
            "--disable-optimize-xml-factories-loading", "--disable-strict-http-headers",
            "--load-resources-from-classpath",
            "--max-http-client-connections", "--disable-connection-reuse", "--supported-proxy-encodings",
            "--filename-template", "--jetty-stop-timeout",
            reason: "not served by stubserver. Remove it")
    ]

    /// The message for `name` when it is one of ``unsupported``.
    static func refusal(_ name: String) -> String? {
        guard let option = unsupported.first(where: { $0.names.contains(name) }) else { return nil }
        return "\(name) is a WireMock option stubserver does not support: \(option.reason)."
    }
}
