// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    import XCTest

    /// `stubserver --proxy-all URL` in front of a second `stubserver` serving the demo stubs.
    final class ProxyEndToEndTests: XCTestCase {
        private func launch(_ arguments: [String], in directory: URL = Paths.repositoryRoot) throws -> URL {
            let server = try StubServerProcess.launch(arguments, currentDirectory: directory)
            addTeardownBlock { server.stop() }
            return server.baseURL
        }

        func testProxyAllForwardsUnmatchedRequestsAndStubsStillWin() async throws {
            let upstream = try launch(["--stubs", Paths.demoStubs.path, "--port", "0"])
            let temp = try TemporaryStubs()
            try temp.write("mappings/hello.json", simpleMapping("/hello", body: "local hello"))
            let proxy = try launch(
                ["--stubs", "stubs", "--port", "0", "--proxy-all", upstream.absoluteString], in: temp.root)

            let local = try await LoopbackClient.send("GET", proxy.appendingPathComponent("hello"))
            XCTAssertEqual(local.text, "local hello")
            let forwarded = try await LoopbackClient.send("GET", proxy.appendingPathComponent("users/octocat"))
            XCTAssertEqual(forwarded.status, 200)
            XCTAssertEqual(forwarded.header("Content-Type"), "application/json; charset=utf-8")
            XCTAssertEqual(forwarded.header("X-RateLimit-Limit"), "60")
            XCTAssertEqual(
                forwarded.body,
                try Data(contentsOf: Paths.demoStubs.appendingPathComponent("__files/users/octocat.json")))
            let notFound = try await LoopbackClient.send("GET", proxy.appendingPathComponent("nowhere/at/all"))
            XCTAssertEqual(notFound.status, 404)
        }

        func testProxyAllToAStoppedUpstreamAnswers502() async throws {
            let temp = try TemporaryStubs()
            let gone = try StubServerProcess.launch(["--stubs", Paths.demoStubs.path, "--port", "0"])
            let deadURL = gone.baseURL
            gone.signal(SIGTERM)
            _ = gone.waitForExit(timeout: .seconds(10))
            let proxy = try launch(
                ["--stubs", "stubs", "--port", "0", "--proxy-all", deadURL.absoluteString], in: temp.root)

            let answer = try await LoopbackClient.send("GET", proxy.appendingPathComponent("users/octocat"))
            XCTAssertEqual(answer.status, 502)
            XCTAssertTrue(answer.text.contains("\(deadURL.absoluteString)/users/octocat"), answer.text)
        }
    }
#endif
