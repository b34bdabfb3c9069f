// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    import XCTest

    /// What CI users pass to a stubserver container: `STUBSERVER_OPTIONS` and WireMock's flags.
    final class ContainerOptionsEndToEndTests: XCTestCase {
        func testOptionsFromTheEnvironmentComeAfterTheArgumentsAndWin() async throws {
            // The arguments ask for a port this test never uses; the variable's --port 0 wins, and --verbose
            // (with a quoted value beside it) takes effect.
            let server = try StubServerProcess.launch(
                ["--stubs", Paths.demoStubs.path, "--port", "1"],
                environment: ["STUBSERVER_OPTIONS": #"--port 0 --verbose --log-unmatched 'line'"#])
            addTeardownBlock { server.stop() }
            let baseURL = server.baseURL
            XCTAssertNotEqual(baseURL.port, 1)
            let response = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("hello"))
            XCTAssertEqual(response.status, 200)
            XCTAssertTrue(server.waitForStandardError(containing: "GET /hello"), server.standardError)
        }

        func testABadOptionsVariableIsAUsageErrorThatNamesIt() throws {
            let rows: [(value: String, message: String)] = [
                (
                    "--port 'eighty",
                    "Error: STUBSERVER_OPTIONS: unterminated ' quote in '--port 'eighty' (arguments and STUBSERVER_OPTIONS='--port 'eighty')"
                ),
                (
                    "--prot 80",
                    "Error: unknown option '--prot'; did you mean '--port'? (arguments and STUBSERVER_OPTIONS='--prot 80')"
                )
            ]
            for row in rows {
                let run = try StubServerProcess.run(
                    ["--stubs", Paths.demoStubs.path], environment: ["STUBSERVER_OPTIONS": row.value])
                XCTAssertEqual(run.termination, .exited(2), row.value)
                XCTAssertTrue(run.stderr.hasPrefix(row.message + "\n"), run.stderr)
            }
            // --version still answers with serving options in the variable.
            let version = try StubServerProcess.run(["--version"], environment: ["STUBSERVER_OPTIONS": "--verbose"])
            XCTAssertEqual(version.termination, .exited(0))
        }

        func testWireMockFlagsAreAccepted() async throws {
            let server = try StubServerProcess.launch([
                "--stubs", Paths.demoStubs.path, "--port", "0", "--bind-address", "127.0.0.1",
                "--disable-banner", "--no-request-journal", "--global-response-templating"
            ])
            addTeardownBlock { server.stop() }
            let baseURL = server.baseURL
            XCTAssertEqual(baseURL.host, "127.0.0.1")
            let hello = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("hello"))
            XCTAssertEqual(hello.status, 200)
            let journal = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("__admin/requests"))
            XCTAssertTrue(journal.text.contains("requestJournalDisabled"), journal.text)
        }
    }
#endif
