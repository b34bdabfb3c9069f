// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    #if os(Linux)
        import Foundation
        import StubClient
        import StubKit
        import StubTestSupport
        import XCTest

        /// Waiting on an `https://` upstream costs the server no CPU on Linux (URLSession spun a core for it:
        /// the proxy now drives libcurl's multi interface from a poll loop of its own), whether the upstream
        /// never answers (a 504 at the proxy timeout) or answers late. CPU is the server's user + system time
        /// from `/proc/PID/stat` while the client waits, as a share of that wait: a spinning thread used all of
        /// it, the bound is a quarter. The client is the `curl` tool, which waits without spinning itself.
        final class HTTPSUpstreamWaitTests: XCTestCase {
            /// The most CPU the server may use while a request waits, as a share of the wait.
            private static let maxShare = 0.25

            func testASilentHTTPSUpstreamGets504AtTheProxyTimeoutWithoutSpinning() async throws {
                guard Curl.isAvailable else { throw XCTSkip("curl is not installed") }
                let silent = try LoopbackListener()  // takes the connection, never reads the TLS hello, never answers
                let temp = try TemporaryStubs()
                try temp.write("mappings/hello.json", simpleMapping("/hello", body: "hello"))
                let server = try await offPool {
                    try StubServerProcess.launch(
                        [
                            "--stubs", "stubs", "--proxy-all", "https://127.0.0.1:\(silent.port)",
                            "--proxy-timeout", "3000"
                        ], currentDirectory: temp.root)
                }
                addTeardownBlock { server.stop() }
                let url = server.baseURL.appendingPathComponent("waits")
                let hello = try await offPool { try Curl.send([], server.baseURL.appendingPathComponent("hello")) }
                XCTAssertEqual(hello.text, "hello")

                let (answer, cpu, wall) = try await ProcessCPU.measure(server.pid) {
                    try await offPool { try Curl.send([], url) }
                }
                XCTAssertEqual(answer.status, 504, answer.text)
                XCTAssertEqual(
                    answer.text,
                    "stubserver: proxying GET /waits to https://127.0.0.1:\(silent.port)/waits failed: no answer "
                        + "within 3.0 seconds (the proxy timeout; raise it with --proxy-timeout or Configuration.proxy.timeout)\n"
                )
                XCTAssertLessThan(
                    cpu, wall * Self.maxShare, "the server used \(cpu) s of CPU while the request waited \(wall) s")

                // The poller thread is still there, or starts again: the next request gets the same answer.
                let again = try await offPool { try Curl.send([], url) }
                XCTAssertEqual(again.status, 504, again.text)
            }

            func testASlowHTTPSUpstreamIsWaitedForWithoutSpinning() async throws {
                guard Curl.isAvailable else { throw XCTSkip("curl is not installed") }
                let proxy = try await TLSUpstreamProxy.start(for: self).proxy
                // A first exchange, so that loading libcurl and its CA bundle is not counted as waiting.
                let first = try await offPool { try Curl.send([], proxy.baseURL.appendingPathComponent("first")) }
                XCTAssertEqual(first.status, 200, first.text)

                let url = proxy.baseURL.appendingPathComponent("slow")
                let (answer, cpu, wall) = try await ProcessCPU.measure(proxy.pid) {
                    try await offPool { try Curl.send([], url) }
                }
                XCTAssertEqual(answer.status, 200, answer.text)
                XCTAssertEqual(answer.text, #"{"body": "", "method": "GET", "path": "/slow", "xTest": null}"#)
                XCTAssertLessThan(
                    cpu, wall * Self.maxShare, "the server used \(cpu) s of CPU while the request waited \(wall) s")
            }

            func testAnHTTPSUpstreamsGzipBodyComesBackInflatedAndItsRedirectIsReturned() async throws {
                guard Curl.isAvailable else { throw XCTSkip("curl is not installed") }
                let started = try await TLSUpstreamProxy.start(for: self)
                let (upstream, proxy) = (started.upstream, started.proxy)

                let inflated = try await offPool { try Curl.send([], proxy.baseURL.appendingPathComponent("gzip")) }
                XCTAssertEqual(inflated.status, 200, inflated.text)
                XCTAssertEqual(inflated.text, String(repeating: "inflated by the proxy ", count: 20))
                XCTAssertNil(inflated.header("Content-Encoding"), "the body is no longer gzip")
                XCTAssertEqual(inflated.header("Content-Length"), "\(inflated.body.count)")
                XCTAssertEqual(inflated.header("X-Upstream"), "https")

                let redirect = try await offPool { try Curl.send([], proxy.baseURL.appendingPathComponent("redirect")) }
                XCTAssertEqual(redirect.status, 302, redirect.text)
                XCTAssertEqual(redirect.header("Location"), "/elsewhere")
                XCTAssertFalse(
                    upstream.requests.contains { $0.contains("/elsewhere") }, "the redirect was not followed")
            }
        }
    #endif
#endif
