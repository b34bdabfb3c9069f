// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubTesting
    import XCTest

    /// STUBSERVER_URL read from the real environment: this test binary runs one of its own tests again as
    /// a child process, with the variable set, against a launched `stubserver`.
    final class ExternalModeFromEnvironmentXCTests: XCTestCase {
        /// The child's test. In the parent run (no STUBSERVER_URL) it is skipped.
        func testSetUpStubServerUsesSTUBSERVER_URLFromTheEnvironment() async throws {
            try XCTSkipIf(
                ProcessInfo.processInfo.environment[ExternalStubServer.environmentVariable] == nil,
                "runs as a child process of testTheChildTestTalksToTheServerInSTUBSERVER_URL")
            let server = try setUpStubServer(stubs: Paths.demoStubs, failOnUnmatchedRequests: true)
            XCTAssertTrue(server.isExternal)
            let answer = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("hello"))
            XCTAssertEqual(answer.text, "Hello, stubserver")
            await XCTAssertRequested(server, .get("/hello"), count: 1)
        }

        func testTheChildTestTalksToTheServerInSTUBSERVER_URL() async throws {
            #if os(Linux)
                // On Linux the test binary is the `.xctest` executable itself; it runs the tests named on its command line.
                let external = try ExternalServer()
                defer { external.process.stop() }
                let name =
                    "stubserverEndToEndTests.ExternalModeFromEnvironmentXCTests/testSetUpStubServerUsesSTUBSERVER_URLFromTheEnvironment"
                let child = try ChildProcess.run(
                    URL(fileURLWithPath: CommandLine.arguments[0]), [name],
                    environment: [ExternalStubServer.environmentVariable: external.process.baseURL.absoluteString],
                    timeout: .seconds(120))
                let output = child.standardOutput + child.standardError
                XCTAssertTrue(child.succeeded, output)
                XCTAssertTrue(output.contains("Executed 1 test, with 0 failures"), output)
                XCTAssertFalse(output.contains("skipped"), output)
                // The child's request reached the launched server.
                let received = try await external.process.received(.get("/hello"))
                XCTAssertEqual(received, 1)
            #else
                throw XCTSkip("runs the .xctest executable, which is a bundle loaded by xctest on macOS")
            #endif
        }
    }
#endif
