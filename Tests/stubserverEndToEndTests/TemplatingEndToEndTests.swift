// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    import XCTest

    /// `--global-response-templating` and `--local-response-templating` on the real binary, through curl.
    final class TemplatingEndToEndTests: XCTestCase {
        private func stubs() throws -> TemporaryStubs {
            let temp = try TemporaryStubs()
            try temp.write(
                "mappings/plain.json", simpleMapping("/plain", body: "{{request.method}} {{request.query.x}}"))
            try temp.write(
                "mappings/local.json",
                #"""
                {"request": {"urlPath": "/local"},
                 "response": {"transformers": ["response-template"], "body": "hi {{upper request.query.x}}"}}
                """#)
            return temp
        }

        private func launch(_ temp: TemporaryStubs, _ arguments: [String]) throws -> (StubServerProcess, URL) {
            let server = try StubServerProcess.launch(
                ["--stubs", "stubs", "--port", "0"] + arguments, currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            return (server, server.baseURL)
        }

        func testByDefaultOnlyStubsWithTheTransformerAreTemplates() throws {
            let temp = try stubs()
            for flags in [[], ["--local-response-templating"]] {
                let (server, base) = try launch(temp, flags)
                XCTAssertEqual(
                    try Curl.send([], base.appendingPathComponent("plain")).text,
                    "{{request.method}} {{request.query.x}}", "\(flags)")
                XCTAssertEqual(
                    try Curl.send([], try XCTUnwrap(URL(string: base.absoluteString + "/local?x=yo"))).text, "hi YO",
                    "\(flags)")
                XCTAssertEqual(server.stop(), .exited(0))
            }
        }

        /// WireMock 2.35.1's output for the same stub, the jar started with `WIREMOCK_T1=hello WIREMOCK_T2='<a&b>'`.
        func testSystemValueReadsThePermittedEnvironmentVariablesOfTheProcess() throws {
            let temp = try TemporaryStubs()
            try temp.write(
                "mappings/system.json",
                simpleMapping(
                    "/system",
                    body:
                        "A[{{systemValue key='WIREMOCK_T1'}}]B[{{systemValue type='ENVIRONMENT' key='wiremock_t1'}}]C[{{systemValue key='PATH'}}]J[{{systemValue key='WIREMOCK_T2'}}]"
                ))
            let server = try StubServerProcess.launch(
                ["--stubs", "stubs", "--port", "0", "--global-response-templating"], currentDirectory: temp.root,
                environment: ["WIREMOCK_T1": "hello", "WIREMOCK_T2": "<a&b>"])
            addTeardownBlock { server.stop() }
            XCTAssertEqual(
                try Curl.send([], server.baseURL.appendingPathComponent("system")).text,
                "A[hello]B[]C[[ERROR: Access to PATH is denied]]J[&lt;a&amp;b&gt;]")
        }

        func testGlobalResponseTemplatingRendersEveryStub() throws {
            let temp = try stubs()
            let (server, base) = try launch(temp, ["--global-response-templating"])
            XCTAssertEqual(
                try Curl.send([], try XCTUnwrap(URL(string: base.absoluteString + "/plain?x=1"))).text, "GET 1")
            XCTAssertEqual(
                try Curl.send([], try XCTUnwrap(URL(string: base.absoluteString + "/local?x=yo"))).text, "hi YO")
            XCTAssertEqual(server.stop(), .exited(0))
        }

        func testABadTemplateIsALoadErrorOnlyWhereItIsATemplate() throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/bad.json", simpleMapping("/bad", body: "line {{#if x}}"))
            let (server, base) = try launch(temp, [])
            XCTAssertEqual(try Curl.send([], base.appendingPathComponent("bad")).text, "line {{#if x}}")
            server.stop()
            let run = try StubServerProcess.run(
                ["--stubs", "stubs", "--port", "0", "--global-response-templating"],
                currentDirectory: temp.root)
            XCTAssertEqual(run.termination, .exited(3))
            XCTAssertTrue(
                run.stderr.contains(
                    "stubserver: error: stubs/mappings/bad.json: response.body: template error at 1:6: {{#if}} is never closed (expected {{/if}})"
                ),
                run.stderr)
        }
    }
#endif
