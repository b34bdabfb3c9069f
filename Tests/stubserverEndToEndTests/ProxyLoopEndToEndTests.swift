// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    import XCTest

    /// Forwarding loops end at once with `508 Loop Detected` (each forwarded request carries `Via: 1.1
    /// stubserver-<id>`), not after the proxy timeout: `--proxy-all` at the server itself, a `proxyBaseUrl`
    /// at itself, and two servers forwarding to each other. The proxy timeout is 60 s in every test, so a
    /// loop that is not caught would end in a 504 a minute later (or the client's own 10 s timeout).
    final class ProxyLoopEndToEndTests: XCTestCase {
        private func launch(_ arguments: [String], in directory: URL = Paths.repositoryRoot) throws -> StubServerProcess
        {
            let server = try StubServerProcess.launch(
                arguments + ["--proxy-timeout", "60000"], currentDirectory: directory)
            addTeardownBlock { server.stop() }
            return server
        }

        private func assertLoopAnswers(
            _ url: URL, naming forwarder: String, count: Int = 20,
            file: StaticString = #filePath, line: UInt = #line
        ) async throws {
            for n in 0..<count {
                let answer = try await LoopbackClient.send("GET", url.appendingPathComponent("loop/\(n)"))
                XCTAssertEqual(answer.status, 508, answer.text, file: file, line: line)
                XCTAssertTrue(
                    answer.text.contains("stubserver: proxy loop: GET /loop/\(n) would be forwarded to "), answer.text,
                    file: file, line: line)
                XCTAssertTrue(answer.text.contains("by \(forwarder)"), answer.text, file: file, line: line)
                XCTAssertNotNil(answer.header("X-Stubserver-Loop"), file: file, line: line)
            }
        }

        func testProxyAllAtTheServerItselfAnswers508() async throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/hello.json", simpleMapping("/hello", body: "hello"))
            // The server must know its port before it starts: take a free one (a few tries, in case another
            // test takes it in between).
            var server: StubServerProcess?
            for _ in 0..<3 where server == nil {
                let port = try LoopbackListener(listen: false).port
                server = try? launch(
                    ["--stubs", "stubs", "--port", "\(port)", "--proxy-all", "http://127.0.0.1:\(port)"], in: temp.root)
            }
            let base = try XCTUnwrap(server).baseURL
            try await assertLoopAnswers(base, naming: "--proxy-all")
            let hello = try await LoopbackClient.send("GET", base.appendingPathComponent("hello"))
            XCTAssertEqual(hello.text, "hello")
        }

        func testAProxyStubAtTheServerItselfAnswers508NamingTheStub() async throws {
            let temp = try TemporaryStubs()
            let server = try launch(["--stubs", "stubs"], in: temp.root)
            let mapping =
                #"{"name": "to myself", "request": {"urlPathPattern": "/loop/.*"}, "response": {"proxyBaseUrl": "\#(server.baseURL.absoluteString)"}}"#
            let added = try await LoopbackClient.send(
                "POST", server.baseURL.appendingPathComponent("__admin/mappings"),
                body: Data(mapping.utf8))
            XCTAssertEqual(added.status, 201, added.text)
            try await assertLoopAnswers(server.baseURL, naming: "the stub to myself")
        }

        func testTwoServersForwardingToEachOtherAnswer508() async throws {
            let temp = try TemporaryStubs()
            let first = try launch(["--stubs", "stubs"], in: temp.root)
            let second = try launch(["--stubs", "stubs", "--proxy-all", first.baseURL.absoluteString], in: temp.root)
            let mapping =
                #"{"name": "to the second", "request": {"urlPathPattern": "/loop/.*"}, "response": {"proxyBaseUrl": "\#(second.baseURL.absoluteString)"}}"#
            let added = try await LoopbackClient.send(
                "POST", first.baseURL.appendingPathComponent("__admin/mappings"),
                body: Data(mapping.utf8))
            XCTAssertEqual(added.status, 201, added.text)
            // first → second → first: the first sees its own marker and answers; the answer goes back the way it came.
            try await assertLoopAnswers(first.baseURL, naming: "the stub to the second")
            // Entering at the second server: second → first → second.
            try await assertLoopAnswers(second.baseURL, naming: "--proxy-all", count: 5)
        }

        func testARequestThatAlreadyMadeTooManyStubserverHopsIsNotForwarded() async throws {
            let upstream = try LoopbackListener()
            let temp = try TemporaryStubs()
            let server = try launch(
                ["--stubs", "stubs", "--proxy-all", "http://127.0.0.1:\(upstream.port)"], in: temp.root)
            let via = (1...8).map { "1.1 stubserver-\(String(repeating: String($0), count: 16))" }.joined(
                separator: ", ")
            let answer = try await LoopbackClient.send(
                "GET", server.baseURL.appendingPathComponent("far"), headers: ["Via": via])
            XCTAssertEqual(answer.status, 508, answer.text)
            XCTAssertTrue(
                answer.text.contains("it already passed through 8 stubserver proxies (at most 8)"), answer.text)
        }
    }
#endif
