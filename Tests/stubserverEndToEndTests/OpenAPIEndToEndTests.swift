// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import StubTestSupport
    import XCTest

    /// `stubserver --openapi` and `stubserver check --openapi`, run as a user runs them, on the demo's document.
    final class OpenAPIEndToEndTests: XCTestCase {
        static let document = "Stubs/openapi.yaml"

        func testServesTheDocumentAfterTheStubsAndRejectsARequestThatBreaksIt() async throws {
            let server = try StubServerProcess.launch(["--stubs", "Stubs", "--openapi", Self.document])
            addTeardownBlock { _ = server.stop() }
            XCTAssertTrue(
                server.waitForStandardError(
                    containing: "answering the 2 operations of Stubs/openapi.yaml (GitHub users (demo))"),
                server.standardError)
            // The demo's own stub for octocat answers first; the document answers the repositories.
            let octocat = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("users/octocat"))
            XCTAssertEqual(octocat.status, 200)
            XCTAssertTrue(octocat.text.contains(#""login": "octocat""#), octocat.text)
            let rejected = try await LoopbackClient.send(
                "GET", URL(string: server.baseURL.absoluteString + "/users/octocat/repos?per_page=1000")!)
            XCTAssertEqual(rejected.status, 400)
            XCTAssertEqual(rejected.headers["Content-Type"], "application/problem+json")
            XCTAssertTrue(rejected.text.contains(#""pointer": "/query/per_page""#), rejected.text)
            XCTAssertTrue(rejected.text.contains("1000 is greater than 100"), rejected.text)
            XCTAssertTrue(
                server.waitForStandardError(containing: "/query/per_page: 1000 is greater than 100 (got 1000)"),
                server.standardError)
            let missing = try await LoopbackClient.send(
                "GET", URL(string: server.baseURL.absoluteString + "/users/nobody-1/repos")!,
                headers: ["Prefer": "code=404"])
            XCTAssertEqual(missing.status, 404)
            XCTAssertTrue(missing.text.contains(#""message":"Not Found""#), missing.text)
        }

        func testCheckReportsTheDemoStubsDriftAndExitsOne() throws {
            let run = try StubServerProcess.run(["check", "--openapi", Self.document, "--stubs", "Stubs"])
            XCTAssertEqual(run.termination, .exited(1), run.stdout + run.stderr)
            XCTAssertEqual(
                run.stdout.split(separator: "\n").map(String.init),
                [
                    "Stubs/openapi.yaml: OK: OpenAPI 3.0, 2 operations, 0 warnings",
                    "drift: Stubs/mappings/avatars.json [0]: GET /avatars/u/2176586 is not in Stubs/openapi.yaml (no operation has this path)",
                    "drift: Stubs/mappings/avatars.json [1]: GET /avatars/u/583231 is not in Stubs/openapi.yaml (no operation has this path)",
                    "drift: Stubs/mappings/hello.json: GET /hello is not in Stubs/openapi.yaml (no operation has this path)",
                    "note: Stubs/mappings/avatars.json [2]: not checked: its URL is any URL, or a regular expression no operation's path fits",
                    "note: Stubs/mappings/users-any.json: its status fits users/get-by-username; its body is not checked: it is a template",
                    "note: Stubs/mappings/users-not-found.json: not checked: its URL is any URL, or a regular expression no operation's path fits",
                    "Stubs against Stubs/openapi.yaml: DRIFT: 3 stubs fit, 3 drift findings, 3 not checked"
                ], run.stdout)
        }

        func testABrokenDocumentExitsThreeNamingTheFileLineAndColumn() throws {
            let temp = try TemporaryStubs()
            try temp.write("api.yaml", "openapi: 3.1.0\npaths:\n  /a:\n    get: [unclosed\n")
            let check = try StubServerProcess.run(["check", "--openapi", "stubs/api.yaml"], currentDirectory: temp.root)
            XCTAssertEqual(check.termination, .exited(3), check.stdout + check.stderr)
            XCTAssertTrue(check.stdout.hasPrefix("error: stubs/api.yaml, line 5, column 1: "), check.stdout)
            let serve = try StubServerProcess.run(
                ["--port", "0", "--stubs", "stubs", "--openapi", "stubs/api.yaml"], currentDirectory: temp.root)
            XCTAssertEqual(serve.termination, .exited(3), serve.stderr)
            XCTAssertTrue(serve.stderr.contains("stubserver: error: stubs/api.yaml, line 5, column 1: "), serve.stderr)
        }
    }
#endif
