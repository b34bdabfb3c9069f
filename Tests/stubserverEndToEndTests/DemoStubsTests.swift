// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    import XCTest
    import StubTestSupport

    /// The demo `Stubs/` served by one `stubserver --port 0` for the whole class, queried by real clients.
    final class DemoStubsTests: XCTestCase {
        private static let demo = Result { () throws -> (server: StubServerProcess, baseURL: URL) in
            let server = try StubServerProcess.launch(["--stubs", Paths.demoStubs.path, "--port", "0"])
            return (server, server.baseURL)
        }

        override class func tearDown() {
            if case let .success(demo) = demo {
                demo.server.stop()
            }
            super.tearDown()
        }

        private var server: StubServerProcess { get throws { try Self.demo.get().server } }
        private var baseURL: URL { get throws { try Self.demo.get().baseURL } }

        private func url(_ path: String) throws -> URL {
            try XCTUnwrap(URL(string: try baseURL.absoluteString + path))
        }

        /// One demo route: the request path, the stub id expected in `Matched-Stub-Id`, and the body source.
        private struct Route {
            var path: String
            var status: Int
            var stubID: String
            var bodyFile: String?
            var mappingFile: String
        }

        private static let routes = [
            Route(
                path: "/users/shashikant86", status: 200, stubID: "5d1a3c1e-7b0e-4a51-9a39-6f3c2b8e0001",
                bodyFile: "users/shashikant86.json", mappingFile: "users-shashikant86.json"),
            Route(
                path: "/users/octocat", status: 200, stubID: "5d1a3c1e-7b0e-4a51-9a39-6f3c2b8e0002",
                bodyFile: "users/octocat.json", mappingFile: "users-octocat.json"),
            Route(
                path: "/users/octocat/repos", status: 200, stubID: "5d1a3c1e-7b0e-4a51-9a39-6f3c2b8e0003",
                bodyFile: "users/octocat-repos.json", mappingFile: "users-octocat.json"),
            Route(
                path: "/users/ghost", status: 404, stubID: "5d1a3c1e-7b0e-4a51-9a39-6f3c2b8e0004",
                bodyFile: nil, mappingFile: "users-not-found.json"),
            Route(
                path: "/avatars/u/2176586", status: 200, stubID: "5d1a3c1e-7b0e-4a51-9a39-6f3c2b8e0005",
                bodyFile: "avatars/2176586.png", mappingFile: "avatars.json"),
            Route(
                path: "/avatars/u/583231", status: 200, stubID: "5d1a3c1e-7b0e-4a51-9a39-6f3c2b8e0006",
                bodyFile: "avatars/583231.png", mappingFile: "avatars.json"),
            Route(
                path: "/hello", status: 200, stubID: "5d1a3c1e-7b0e-4a51-9a39-6f3c2b8e0007",
                bodyFile: nil, mappingFile: "hello.json")
        ]

        /// The stub's `response` object, read from the demo mapping file with JSONSerialization (not StubKit).
        private func responseDefinition(_ route: Route) throws -> [String: Any] {
            let data = try Data(contentsOf: Paths.demoStubs.appendingPathComponent("mappings/\(route.mappingFile)"))
            let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let mappings = (document["mappings"] as? [[String: Any]]) ?? [document]
            let mapping = try XCTUnwrap(mappings.first { $0["id"] as? String == route.stubID }, route.stubID)
            return try XCTUnwrap(mapping["response"] as? [String: Any])
        }

        func testEveryDemoRouteThroughURLSession() async throws {
            for route in Self.routes {
                let response = try await LoopbackClient.send("GET", try url(route.path))
                let definition = try responseDefinition(route)
                XCTAssertEqual(response.status, route.status, route.path)
                XCTAssertEqual(response.header("Matched-Stub-Id"), route.stubID, route.path)
                let headers = try XCTUnwrap(definition["headers"] as? [String: String], route.path)
                XCTAssertFalse(headers.isEmpty, route.path)
                for (name, value) in headers {
                    XCTAssertEqual(response.header(name), value, "\(route.path): header \(name)")
                }
                if let bodyFile = route.bodyFile {
                    let expected = try Data(contentsOf: Paths.demoStubs.appendingPathComponent("__files/\(bodyFile)"))
                    XCTAssertEqual(response.body, expected, "\(route.path): body differs from __files/\(bodyFile)")
                    XCTAssertEqual(response.header("Content-Length"), "\(expected.count)", route.path)
                } else if let body = definition["body"] as? String {
                    XCTAssertEqual(response.text, body, route.path)
                } else {
                    let expected = try XCTUnwrap(definition["jsonBody"] as? NSDictionary, route.path)
                    let actual = try XCTUnwrap(
                        try JSONSerialization.jsonObject(with: response.body) as? NSDictionary, route.path)
                    XCTAssertEqual(actual, expected, route.path)
                }
            }
            let png = try await LoopbackClient.send("GET", try url("/avatars/u/583231"))
            XCTAssertEqual(Array(png.body.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "PNG signature")
            let user = try await LoopbackClient.send("GET", try url("/users/shashikant86"))
            let profile = try XCTUnwrap(try JSONSerialization.jsonObject(with: user.body) as? [String: Any])
            XCTAssertEqual(profile["name"] as? String, "StubName")
            XCTAssertEqual(profile["location"] as? String, "StubLocation")
        }

        func testRoutesThroughCurl() throws {
            try XCTSkipUnless(Curl.isAvailable, "curl is not installed")
            let octocat = try Curl.send([], try url("/users/octocat"))
            XCTAssertEqual(octocat.status, 200)
            XCTAssertEqual(octocat.header("Content-Type"), "application/json; charset=utf-8")
            XCTAssertEqual(octocat.header("X-RateLimit-Remaining"), "59")
            XCTAssertEqual(
                octocat.body, try Data(contentsOf: Paths.demoStubs.appendingPathComponent("__files/users/octocat.json"))
            )

            let avatar = try Curl.send([], try url("/avatars/u/2176586"))
            XCTAssertEqual(avatar.status, 200)
            XCTAssertEqual(avatar.header("Content-Type"), "image/png")
            XCTAssertEqual(
                avatar.body, try Data(contentsOf: Paths.demoStubs.appendingPathComponent("__files/avatars/2176586.png"))
            )

            // HEAD: as in WireMock, a GET stub does not answer HEAD; the 404 has the report's length and no body.
            let head = try Curl.send(["-I"], try url("/hello"))
            XCTAssertEqual(head.status, 404)
            XCTAssertEqual(head.header("Content-Type"), "text/plain; charset=utf-8")
            XCTAssertGreaterThan(Int(head.header("Content-Length") ?? "") ?? 0, 0)
            // (curl -I writes the headers where the body would go; the raw-socket test checks HEAD sends no body.)
            let hello = try Curl.send([], try url("/hello"))
            XCTAssertEqual(hello.text, "Hello, stubserver")

            let post = try Curl.send(
                ["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"login":"octocat"}"#],
                try url("/users/octocat"))
            XCTAssertEqual(post.status, 404)
            XCTAssertTrue(post.text.hasPrefix("No stub matched POST /users/octocat\n"), post.text)
            XCTAssertTrue(post.text.contains(#"{"login":"octocat"}"#), post.text)
            XCTAssertTrue(
                post.text.contains(#"1. "GitHub user octocat" (Stubs/mappings/users-octocat.json [0]) — 1 difference"#),
                post.text)
            XCTAssertTrue(post.text.contains(#"method: expected "GET", got "POST""#), post.text)
        }

        func testNearMissReportInTheBodyAndOnStderr() async throws {
            let probe = UUID().uuidString
            let response = try await LoopbackClient.send(
                "GET", try url("/users/octocat/repo?probe=\(probe)"),
                headers: ["Accept": "application/vnd.github+json"])
            XCTAssertEqual(response.status, 404)
            XCTAssertEqual(response.header("Content-Type"), "text/plain; charset=utf-8")
            XCTAssertNil(response.header("Matched-Stub-Id"))
            let report = response.text
            XCTAssertTrue(report.hasPrefix("No stub matched GET /users/octocat/repo?probe=\(probe)\n"), report)
            XCTAssertTrue(report.contains("Request:\n  GET /users/octocat/repo?probe=\(probe) HTTP/1.1\n"), report)
            XCTAssertTrue(report.contains("  Accept: application/vnd.github+json\n"), report)
            XCTAssertTrue(
                report.contains(
                    "Closest stubs:\n  1. \"GitHub repos of octocat\" (Stubs/mappings/users-octocat.json [1]) — 1 difference\n"
                ), report)
            XCTAssertTrue(
                report.contains(#"url: expected urlPath "/users/octocat/repos", got "/users/octocat/repo""#), report)
            // The same diagnosis, whole, on the server's stderr.
            let server = try self.server
            XCTAssertTrue(server.waitForStandardError(containing: report), "stderr:\n\(server.standardError)")
        }

        func testMalformedRequestGets400AndTheServerKeepsServing() async throws {
            let port = try XCTUnwrap(try baseURL.port)
            let reply = try RawSocket.exchange(
                port: port, Array("GET / HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n".utf8))
            let text = String(decoding: reply, as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("HTTP/1.1 400 "), text)

            let hello = try await LoopbackClient.send("GET", try url("/hello"))
            XCTAssertEqual(hello.status, 200)
            XCTAssertEqual(hello.text, "Hello, stubserver")
        }

        func testHeadAnswersWithHeadersOnly() throws {
            let port = try XCTUnwrap(try baseURL.port)
            let reply = try RawSocket.exchange(
                port: port, Array("HEAD /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            let text = String(decoding: reply, as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("HTTP/1.1 404 Not Found\r\n"), text)
            XCTAssertNotNil(text.range(of: "\r\nContent-Length: [1-9][0-9]*\r\n", options: .regularExpression), text)
            XCTAssertTrue(text.hasSuffix("\r\n\r\n"), "a HEAD response ends after its headers: \(text)")
        }
    }
#endif
