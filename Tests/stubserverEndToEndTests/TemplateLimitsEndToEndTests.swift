// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import XCTest

    /// Against the binary: a stub with three nested
    /// `{{#each request.pathSegments}}` and requests of 1,000 segments (10⁹ iterations unbounded). Each is
    /// answered 500 naming the stub and the limit, `/hello` keeps being answered meanwhile, and SIGTERM
    /// stops the process with bombs in flight. Timeouts are generous bounds for "does not hang", not figures.
    final class TemplateLimitsEndToEndTests: XCTestCase {
        private static let bomb = #"""
            {"name": "segments bomb",
             "request": {"method": "GET", "urlPathPattern": "/bomb/.*"},
             "response": {"status": 200, "transformers": ["response-template"],
                          "body": "{{#each request.pathSegments}}{{#each request.pathSegments}}{{#each request.pathSegments}}x{{/each}}{{/each}}{{/each}}"}}
            """#
        private static let echo = #"""
            {"request": {"method": "POST", "urlPath": "/echo"},
             "response": {"status": 200, "transformers": ["response-template"], "body": "{{request.body}}"}}
            """#
        private static let rawEcho = #"""
            {"request": {"method": "POST", "urlPath": "/raw"},
             "response": {"status": 200, "transformers": ["response-template"], "body": "{{{request.body}}}"}}
            """#

        private func launch(_ arguments: [String] = []) throws -> (StubServerProcess, TemporaryStubs) {
            let stubs = try TemporaryStubs()
            try stubs.write("mappings/hello.json", simpleMapping("/hello", body: "hello"))
            try stubs.write("mappings/bomb.json", Self.bomb)
            try stubs.write("mappings/echo.json", Self.echo)
            try stubs.write("mappings/raw.json", Self.rawEcho)
            let server = try StubServerProcess.launch(
                ["--stubs", "stubs", "--port", "0"] + arguments, currentDirectory: stubs.root)
            addTeardownBlock { server.stop() }
            return (server, stubs)
        }

        /// `/bomb/` and 999 more segments: about 2 KB.
        private func bombURL(_ server: StubServerProcess) throws -> URL {
            try XCTUnwrap(
                URL(
                    string: server.baseURL.absoluteString + "/bomb/"
                        + Array(repeating: "s", count: 999).joined(separator: "/")))
        }

        /// curl sending `count` bomb requests one after another on one connection, in the background.
        private func bombs(_ url: URL, count: Int) throws -> Process {
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            curl.arguments =
                ["curl", "-s", "-o", "/dev/null", "--max-time", "60"]
                + Array(repeating: url.absoluteString, count: count)
            curl.standardInput = FileHandle.nullDevice
            curl.standardOutput = FileHandle.nullDevice
            curl.standardError = FileHandle.nullDevice
            try curl.run()
            return curl
        }

        func testAPathSegmentsBombIsA500NamingTheStubAndTheLimit() throws {
            try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
            let (server, _) = try launch()
            let response = try Curl.send([], try bombURL(server))
            XCTAssertEqual(response.status, 500)
            XCTAssertTrue(response.text.hasPrefix("stubserver: stub 'segments bomb' ("), response.text)
            XCTAssertTrue(
                response.text.contains("the template limit of 1000000 steps (--template-max-steps"), response.text)
            XCTAssertTrue(
                server.waitForStandardError(containing: "stubserver: stub 'segments bomb' ("), server.standardError)
            // A request the template fits is still rendered.
            let small = try XCTUnwrap(URL(string: server.baseURL.absoluteString + "/bomb/a/b"))
            XCTAssertEqual(try Curl.send([], small).text, String(repeating: "x", count: 27))
        }

        func testHelloIsAnsweredWhileBombsRenderAndSIGTERMStopsThem() throws {
            try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
            let (server, _) = try launch()
            let url = try bombURL(server)
            let attackers = try (0..<4).map { _ in try bombs(url, count: 20) }
            defer { for attacker in attackers where attacker.isRunning { kill(attacker.processIdentifier, SIGKILL) } }
            XCTAssertTrue(
                server.waitForStandardError(containing: "stubserver: stub 'segments bomb' ("), "no bomb was answered")
            // The single event loop is never held by a render: every /hello is answered during the attack.
            for _ in 0..<20 {
                XCTAssertEqual(try Curl.send([], server.baseURL.appendingPathComponent("hello")).text, "hello")
            }
            server.signal(SIGTERM)
            XCTAssertEqual(
                server.waitForExit(timeout: .seconds(30)), .exited(0),
                "SIGTERM with bombs in flight did not end the process: \(server.standardError.suffix(2000))")
        }

        func testTheOutputLimitCountsHTMLEscapingAndIsSetByAFlag() throws {
            try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
            let (server, stubs) = try launch(["--template-max-output", "512KiB"])
            // 200 KB of `<`: 200 KB raw, 800 KB escaped.
            let body = try stubs.writeOutside("body.txt", String(repeating: "<", count: 200_000))
            let escaped = try Curl.send(
                ["--data-binary", "@\(body.path)"], server.baseURL.appendingPathComponent("echo"))
            XCTAssertEqual(escaped.status, 500)
            XCTAssertTrue(
                escaped.text.contains("the template limit of 524288 output bytes (--template-max-output"), escaped.text)
            let raw = try Curl.send(["--data-binary", "@\(body.path)"], server.baseURL.appendingPathComponent("raw"))
            XCTAssertEqual(raw.status, 200)
            XCTAssertEqual(raw.body.count, 200_000)
        }

        func testTheStepLimitIsSetByAFlag() throws {
            try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
            let (server, _) = try launch(["--template-max-steps", "100"])
            let url = try XCTUnwrap(
                URL(
                    string: server.baseURL.absoluteString + "/bomb/"
                        + Array(repeating: "s", count: 9).joined(separator: "/")))
            let response = try Curl.send([], url)
            XCTAssertEqual(response.status, 500)
            XCTAssertTrue(response.text.contains("the template limit of 100 steps"), response.text)
        }
    }
#endif
