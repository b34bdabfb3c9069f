// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import XCTest
    import StubTestSupport

    /// Options, exit codes, signals and request logging of the `stubserver` process.
    final class CommandLineTests: XCTestCase {
        /// Launches a demo server; it is SIGKILLed in teardown if the test did not stop it.
        private func launch(_ arguments: [String]) throws -> (StubServerProcess, URL) {
            let server = try StubServerProcess.launch(["--stubs", Paths.demoStubs.path] + arguments)
            addTeardownBlock { server.stop() }
            return (server, server.baseURL)
        }

        func testHelpPrintsUsageOnStdoutAndExitsZero() throws {
            for flag in ["--help", "-h"] {
                let run = try StubServerProcess.run([flag])
                XCTAssertEqual(run.termination, .exited(0), flag)
                XCTAssertTrue(run.stdout.hasPrefix("USAGE: stubserver [--stubs DIR] [--port N]"), run.stdout)
                XCTAssertTrue(run.stdout.contains("--watch"), run.stdout)
                XCTAssertTrue(
                    run.stdout.contains(
                        "Exit codes: 0 stopped by SIGINT, SIGTERM, SIGHUP or SIGQUIT, 2 usage error, 3 bad stubs, 4 cannot listen."
                    ), run.stdout)
                XCTAssertEqual(run.stderr, "", flag)
            }
        }

        func testVersionPrintsTheVersionAndExitsZero() throws {
            let run = try StubServerProcess.run(["--version"])
            XCTAssertEqual(run.termination, .exited(0))
            XCTAssertNotNil(
                run.stdout.range(of: #"^stubserver \d+\.\d+\.\d+\n$"#, options: .regularExpression), run.stdout)
        }

        func testBadOptionsExitTwoWithErrorAndUsageOnStderr() throws {
            let rows: [(arguments: [String], message: String)] = [
                (["--prot", "8080"], "Error: unknown option '--prot'; did you mean '--port'?"),
                (["--port", "seventy"], "Error: --port expects a number from 0 to 65535, got 'seventy'"),
                (["--port", "70000"], "Error: --port expects a number from 0 to 65535, got '70000'"),
                (["--stubs"], "Error: --stubs needs a value"),
                (["--verbose=yes"], "Error: --verbose takes no value")
            ]
            for row in rows {
                let run = try StubServerProcess.run(row.arguments)
                let label = row.arguments.joined(separator: " ")
                XCTAssertEqual(run.termination, .exited(2), label)
                XCTAssertEqual(run.stdout, "", label)
                XCTAssertTrue(run.stderr.hasPrefix(row.message + "\n"), "\(label): \(run.stderr)")
                XCTAssertTrue(run.stderr.contains("\nUSAGE: stubserver "), "\(label): \(run.stderr)")
            }
        }

        func testVerboseLogsOneLinePerRequestAndSIGINTExitsZero() async throws {
            let (server, baseURL) = try launch(["--port", "0", "--verbose"])
            let hello = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("hello"))
            XCTAssertEqual(hello.status, 200)
            let missing = try await LoopbackClient.send("DELETE", baseURL.appendingPathComponent("nowhere"))
            XCTAssertEqual(missing.status, 404)
            XCTAssertTrue(server.waitForStandardError(containing: "DELETE /nowhere → 404"), server.standardError)
            // A stub added at run time without a name is named by its pattern and id, as the 404 report names it.
            let added = try await server.stub(.get("/added"), .text("added"))
            _ = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("added"))
            XCTAssertTrue(server.waitForStandardError(containing: "GET /added → 200"), server.standardError)

            server.signal(SIGINT)
            XCTAssertEqual(server.waitForExit(timeout: .seconds(10)), .exited(0))
            let lines = server.standardError.split(separator: "\n").filter { $0.contains(" → ") }
            XCTAssertEqual(lines.count, 3, server.standardError)
            let matched = #"^GET /hello → 200 "Hello \(liveness check\)" in \d+(\.\d+)? ms$"#
            let unmatched = #"^DELETE /nowhere → 404 no match in \d+(\.\d+)? ms$"#
            XCTAssertNotNil(lines.first?.range(of: matched, options: .regularExpression), "\(lines)")
            XCTAssertNotNil(lines[1].range(of: unmatched, options: .regularExpression), "\(lines)")
            XCTAssertTrue(
                lines.last?.hasPrefix(#"GET /added → 200 "GET /added (id \#(added.id))" in "#) == true, "\(lines)")
        }

        func testWithoutVerboseNoRequestLinesAndSIGTERMExitsZero() async throws {
            let (server, baseURL) = try launch(["--port", "0"])
            let hello = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("hello"))
            XCTAssertEqual(hello.status, 200)

            XCTAssertEqual(server.stop(), .exited(0))
            XCTAssertTrue(server.standardError.hasPrefix("stubserver: serving 9 stubs from "), server.standardError)
            XCTAssertFalse(server.standardError.contains(" → "), server.standardError)
            XCTAssertEqual(server.standardOutput, "Listening on \(baseURL.absoluteString)\n")
        }

        func testOpenPrintsTheDashboardAddressAfterTheListeningLineAndItServesThePage() async throws {
            let (server, baseURL) = try launch(["--port", "0", "--open"])
            let address = baseURL.absoluteString.replacingOccurrences(of: "/$", with: "", options: .regularExpression)
            let page = try await LoopbackClient.send("GET", try XCTUnwrap(URL(string: address + "/__admin/dashboard")))
            XCTAssertEqual(page.status, 200)
            XCTAssertEqual(page.headers["Content-Type"], "text/html; charset=utf-8")
            XCTAssertEqual(server.stop(), .exited(0))
            XCTAssertEqual(
                server.standardOutput,
                "Listening on \(baseURL.absoluteString)\nDashboard on \(address)/__admin/dashboard\n")
        }

        func testASignalRightAfterTheListeningLineStillExitsZero() throws {
            // A supervisor may stop the server as soon as it has read the first line.
            for round in 0..<8 {
                let signal = round.isMultiple(of: 2) ? SIGTERM : SIGINT
                let server = try StubServerProcess.launch(["--stubs", Paths.demoStubs.path, "--port", "0"])
                addTeardownBlock { server.stop() }
                server.signal(signal)
                XCTAssertEqual(server.waitForExit(timeout: .seconds(5)), .exited(0), "round \(round), signal \(signal)")
            }
        }

        func testAnAddressNotOnThisMachineExitsFourWithoutSuggestingPortZero() throws {
            // 192.0.2.1 is TEST-NET-1: never assigned to a local interface.
            let run = try StubServerProcess.run(["--stubs", Paths.demoStubs.path, "--port", "0", "--host", "192.0.2.1"])
            XCTAssertEqual(run.termination, .exited(4))
            XCTAssertTrue(run.stderr.hasPrefix("stubserver: error: cannot listen on 192.0.2.1:0"), run.stderr)
            XCTAssertFalse(run.stderr.contains("--port 0"), run.stderr)
            XCTAssertTrue(run.stderr.contains("--host 127.0.0.1"), run.stderr)
        }

        func testPortInUseExitsFourNamingThePortAndSuggestingPortZero() throws {
            let occupied = try RawSocket.occupyLoopbackPort()
            defer { close(occupied.fd) }
            let run = try StubServerProcess.run(["--stubs", Paths.demoStubs.path, "--port", "\(occupied.port)"])
            XCTAssertEqual(run.termination, .exited(4))
            XCTAssertEqual(run.stdout, "")
            XCTAssertTrue(run.stderr.contains("127.0.0.1:\(occupied.port)"), run.stderr)
            XCTAssertTrue(run.stderr.contains("address already in use"), run.stderr)
            XCTAssertTrue(run.stderr.contains("--port 0"), run.stderr)
        }

        func testServesOverIPv6Loopback() async throws {
            try XCTSkipUnless(RawSocket.ipv6LoopbackAvailable, "::1 is not available on this machine")
            let (server, baseURL) = try launch(["--port", "0", "--host", "::1"])
            let firstLine = server.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
            XCTAssertNotNil(
                firstLine.range(of: #"^Listening on http://\[::1\]:[1-9][0-9]*$"#, options: .regularExpression),
                firstLine)
            #if canImport(FoundationNetworking)
                // FoundationNetworking fails IPv6-literal URLs with NSURLErrorBadURL (swift-corelibs-foundation
                // issue 5496, fixed after this toolchain), so on Linux curl is the client.
                try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
                let hello = try Curl.send(["-g"], baseURL.appendingPathComponent("hello"))
            #else
                let hello = try await LoopbackClient.send("GET", baseURL.appendingPathComponent("hello"))
            #endif
            XCTAssertEqual(hello.status, 200)
            XCTAssertEqual(hello.text, "Hello, stubserver")
            XCTAssertEqual(hello.header("Matched-Stub-Id"), "5d1a3c1e-7b0e-4a51-9a39-6f3c2b8e0007")
            XCTAssertEqual(server.stop(), .exited(0))
        }
    }
#endif
