// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport
    import XCTest

    /// The proxy in front of an HTTPS upstream on 127.0.0.1 (``TLSUpstream``: a throwaway CA and a
    /// certificate made by `openssl` for this run), with certificate verification on throughout: a
    /// trusted upstream is forwarded to, and an untrusted one gets a 502 that names it and the TLS reason.
    final class HTTPSUpstreamTests: XCTestCase {
        func testForwardsToAnHTTPSUpstreamWhoseCAIsTrusted() async throws {
            let started = try await TLSUpstreamProxy.start(for: self) { upstream, stubs in
                try stubs.write("mappings/hello.json", simpleMapping("/hello", body: "local hello"))
                try stubs.write(
                    "mappings/api.json",
                    """
                    {"request": {"urlPathPattern": "/api/.*"},
                     "response": {"proxyBaseUrl": "\(upstream.baseURL.absoluteString)", "proxyUrlPrefixToRemove": "/api",
                                  "additionalProxyRequestHeaders": {"X-Test": "from-stub"}}}
                    """)
            }
            let (upstream, proxy) = (started.upstream, started.proxy)

            let local = try await LoopbackClient.send("GET", proxy.baseURL.appendingPathComponent("hello"))
            XCTAssertEqual(local.text, "local hello")
            XCTAssertEqual(upstream.requests, [], "a stub answered: nothing was forwarded")

            let forwarded = try await LoopbackClient.send(
                "POST", proxy.baseURL.appendingPathComponent("users/octocat"),
                headers: ["X-Test": "from-client"], body: Data(#"{"name":"octocat"}"#.utf8))
            XCTAssertEqual(forwarded.status, 200, forwarded.text)
            XCTAssertEqual(forwarded.header("X-Upstream"), "https")
            XCTAssertEqual(forwarded.header("Content-Type"), "application/json")
            XCTAssertEqual(
                forwarded.text,
                #"{"body": "{\"name\":\"octocat\"}", "method": "POST", "path": "/users/octocat", "xTest": "from-client"}"#
            )

            let binary = try await LoopbackClient.send("GET", proxy.baseURL.appendingPathComponent("binary"))
            XCTAssertEqual(binary.status, 200)
            XCTAssertEqual([UInt8](binary.body), (0..<1024).map { UInt8($0 % 256) }, "byte for byte")

            let viaStub = try await LoopbackClient.send(
                "GET", proxy.baseURL.appendingPathComponent("api/repos/octocat/hello-world"))
            XCTAssertEqual(viaStub.status, 200, viaStub.text)
            XCTAssertEqual(
                viaStub.text,
                #"{"body": "", "method": "GET", "path": "/repos/octocat/hello-world", "xTest": "from-stub"}"#)
            XCTAssertEqual(upstream.requests.count, 3, upstream.requests.joined(separator: "\n"))
        }

        func testAnUntrustedUpstreamCertificateGets502NamingTheUpstreamAndTheTLSReason() async throws {
            // Launched as usual: the machine's trust store does not hold this run's CA.
            let started = try await TLSUpstreamProxy.start(for: self, trusting: false)
            let (upstream, proxy) = (started.upstream, started.proxy)

            let answer = try await LoopbackClient.send("GET", proxy.baseURL.appendingPathComponent("users/octocat"))
            XCTAssertEqual(answer.status, 502, answer.text)
            XCTAssertEqual(answer.header("Content-Type"), "text/plain; charset=utf-8")
            let text = answer.text
            XCTAssertTrue(
                text.hasPrefix(
                    "stubserver: proxying GET /users/octocat to \(upstream.baseURL.absoluteString)/users/octocat failed: TLS failure: "
                ),
                text)
            XCTAssertTrue(text.contains("certificate"), text)
            XCTAssertTrue(text.contains("not signed by an authority this machine trusts"), text)
            XCTAssertEqual(upstream.requests, [], "no request got past the handshake")

            // The proxy keeps serving: the next request gets the same clear answer, not a hang.
            let again = try await LoopbackClient.send("GET", proxy.baseURL.appendingPathComponent("users/octocat"))
            XCTAssertEqual(again.status, 502)
        }
    }
#endif
