// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    import XCTest

    /// `--host-alias` on the real binary: a port per virtual host, listed on stdout and by `/__admin/hosts`,
    /// with stubs from `mappings/HOST/`.
    final class VirtualHostsEndToEndTests: XCTestCase {
        func testEachHostAliasGetsAPortItsStubsAndAStartupLine() async throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/api.example.com/who.json", simpleMapping("/who", body: "api"))
            try temp.write("mappings/auth.example.com/who.json", simpleMapping("/who", body: "auth"))
            try temp.write("mappings/shared.json", simpleMapping("/shared", body: "shared"))
            let server = try StubServerProcess.launch(
                ["--stubs", "stubs", "--host-alias", "api.example.com", "--host-alias", "AUTH.example.com"],
                currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            let hosts = try await server.client.hosts()
            XCTAssertEqual(hosts.map(\.name), [nil, "api.example.com", "auth.example.com"])
            XCTAssertEqual(hosts.first?.baseURL, server.baseURL)
            let api = try XCTUnwrap(hosts.first { $0.name == "api.example.com" }).baseURL
            let auth = try XCTUnwrap(hosts.first { $0.name == "auth.example.com" }).baseURL
            XCTAssertTrue(
                eventuallyBlocking {
                    server.standardOutput.contains("Host auth.example.com on \(auth.absoluteString)\n")
                }, server.standardOutput)
            XCTAssertTrue(
                server.standardOutput.hasPrefix(
                    "Listening on \(server.baseURL.absoluteString)\nHost api.example.com on \(api.absoluteString)\n"),
                server.standardOutput)
            let fetched = try await offPool {
                (
                    try Curl.send([], api.appendingPathComponent("who")).text,
                    try Curl.send(["-H", "Host: api.example.com"], auth.appendingPathComponent("who")).text,
                    try Curl.send([], server.baseURL.appendingPathComponent("who")).status,
                    try Curl.send([], auth.appendingPathComponent("shared")).text
                )
            }
            XCTAssertEqual(fetched.0, "api")
            XCTAssertEqual(fetched.1, "auth")
            XCTAssertEqual(fetched.2, 404)
            XCTAssertEqual(fetched.3, "shared")
            XCTAssertEqual(server.stop(), .exited(0))
        }

        /// An app with three backends: the same paths on three virtual hosts, fetched by URLSession (as the app
        /// would) and by curl, each answered by its own host's stubs; the journal tells them apart.
        func testThreeBackendsThroughURLSessionAndCurl() async throws {
            let temp = try TemporaryStubs()
            let names = ["api.example.com", "auth.example.com", "cdn.example.com"]
            for name in names {
                try temp.write("mappings/\(name)/status.json", simpleMapping("/status", body: name))
                try temp.write(
                    "mappings/\(name)/echo.json",
                    #"{"request": {"urlPath": "/echo"}, "response": {"body": "{{request.host}} {{request.port}}","#
                        + #" "transformers": ["response-template"]}}"#)
            }
            let server = try StubServerProcess.launch(
                ["--stubs", "stubs"] + names.flatMap { ["--host-alias", $0] }, currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            let hosts = try await server.client.hosts()
            for name in names {
                let base = try XCTUnwrap(hosts.first { $0.name == name }?.baseURL, name)
                let viaURLSession = try await LoopbackClient.send("GET", base.appendingPathComponent("status"))
                XCTAssertEqual(viaURLSession.status, 200, name)
                XCTAssertEqual(String(decoding: viaURLSession.body, as: UTF8.self), name)
                let echo = try await LoopbackClient.send("GET", base.appendingPathComponent("echo"))
                XCTAssertEqual(String(decoding: echo.body, as: UTF8.self), "\(name) \(base.port ?? 0)")
                let viaCurl = try await offPool { try Curl.send([], base.appendingPathComponent("status")) }
                XCTAssertEqual(viaCurl.status, 200, name)
                XCTAssertEqual(viaCurl.text, name)
            }
            let primary = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("status"))
            XCTAssertEqual(primary.status, 404, "the primary port serves no host's folder")
            let logged = try await server.client.requests(matching: .any(pathPattern: ".*"))
            for name in names {
                XCTAssertEqual(logged.filter { $0.virtualHost == name }.count, 3, name)
            }
            XCTAssertEqual(server.stop(), .exited(0))
        }

        func testCheckWithHostAliasReportsAHostMatcherThatContradictsItsFolder() throws {
            let temp = try TemporaryStubs()
            try temp.write(
                "mappings/api.example.com/who.json",
                #"{"request": {"urlPath": "/who", "host": {"equalTo": "auth.example.com"}}, "response": {"body": "x"}}"#
            )
            let plain = try StubServerProcess.run(["check", "--stubs", "stubs"], currentDirectory: temp.root)
            XCTAssertEqual(plain.termination, .exited(0), plain.stdout)
            let run = try StubServerProcess.run(
                ["check", "--stubs", "stubs", "--host-alias", "api.example.com"], currentDirectory: temp.root)
            XCTAssertEqual(run.termination, .exited(3), run.stdout)
            XCTAssertTrue(
                run.stdout.contains(
                    "error: stubs/mappings/api.example.com/who.json: request.host: a stub under mappings/api.example.com/"
                ),
                run.stdout)
        }

        func testAHostAliasThatIsNotAHostNameIsAUsageError() throws {
            let outcome = try StubServerProcess.run(["--port", "0", "--host-alias", "api.example.com:8080"])
            XCTAssertEqual(outcome.termination, .exited(2), outcome.stderr)
            XCTAssertTrue(outcome.stderr.contains("--host-alias 'api.example.com:8080'"), outcome.stderr)
        }
    }
#endif
