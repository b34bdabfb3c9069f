import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// ``StubServer/Configuration/forwardProxy``: the in-process server as an HTTP proxy for curl, answering `http://`
/// requests in absolute form and `https://` ones through `CONNECT` tunnels from the stubs, with their real host.
/// Spawns curl: Linux and macOS; the TLS tunnels need the engine's OpenSSL (Linux).
#if os(Linux) || os(macOS)
    @Suite("Forward proxy")
    struct ForwardProxyTests {
        /// `curl -sS -x SERVER ARGUMENTS`: its exit status, stdout and stderr.
        static func curl(through server: StubServer, _ arguments: [String]) throws -> ChildProcess.Outcome {
            try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["curl", "-sS", "--max-time", "30", "--noproxy", "", "-x", server.baseURL.absoluteString] + arguments)
        }

        /// Answers `host path` for any `GET`, as the host and path the request was matched with.
        static let echoHost = """
            {"request": {"method": "GET", "urlPattern": "/.*"},
             "response": {"body": "{{request.host}} {{request.path}}", "transformers": ["response-template"]}}
            """

        @Test("http:// through the proxy: matched by host, journaled with it; an unmatched one gets the near-miss 404")
        func plainHTTP() async throws {
            let server = try startQuietServer()
            try await shuttingDown(server) {
                try server.stub(
                    mappingJSON: """
                        {"request": {"method": "GET", "url": "/v1/profile", "host": {"equalTo": "api.example.com"}},
                         "response": {"body": "stubbed profile"}}
                        """)
                let answer = try Self.curl(through: server, ["http://api.example.com/v1/profile"])
                #expect(answer.standardOutput == "stubbed profile", "\(answer.standardError)")
                let other = try Self.curl(
                    through: server, ["-w", "%{http_code}", "-o", "/dev/null", "http://other.example.com/v1/profile"])
                #expect(other.standardOutput == "404")
                let journal = try await HTTP.get(server, "/__admin/requests").text
                #expect(journal.contains(#""absoluteUrl": "http://api.example.com/v1/profile""#), "\(journal)")
                #expect(journal.contains(#""host": "api.example.com""#))
            }
        }

        @Test("CONNECT to a port not allowed is refused with 403 naming the option; an allow-list refuses other hosts")
        func bounds() async throws {
            let server = try startQuietServer { $0.forwardProxy.allowedHosts = ["*.example.com"] }
            try await shuttingDown(server) {
                try server.stub(mappingJSON: Self.echoHost)
                let port = try Self.curl(through: server, ["-v", "https://api.example.com:8443/x"])
                #expect(port.status == 56 && port.standardError.contains("403"), "\(port.standardError)")
                let host = try Self.curl(through: server, ["-v", "https://api.other.test/x"])
                #expect(host.status == 56 && host.standardError.contains("403"), "\(host.standardError)")
                let plain = try Self.curl(through: server, ["-w", " %{http_code}", "http://api.other.test/x"])
                #expect(plain.standardOutput.hasSuffix(" 403"), "\(plain.standardOutput)")
                #expect(plain.standardOutput.contains("--proxy-allow-host"))
                let allowed = try Self.curl(through: server, ["http://api.example.com/x"])
                #expect(allowed.standardOutput == "api.example.com /x")
            }
        }

        @Test("Recording as a forward proxy: each proxied request goes to its own host, its stub matching that host")
        func recording() async throws {
            let upstream = try startQuietServer()
            let server = try startQuietServer()
            try await shuttingDown(upstream, server) {
                upstream.stub(.get("/users/octocat"), .json(["login": "octocat"]))
                try server.startRecording(.forwardProxy())
                let upstreamURL = "http://127.0.0.1:\(upstream.port)/users/octocat"
                let recorded = try Self.curl(through: server, [upstreamURL])
                #expect(recorded.standardOutput.contains("octocat"), "\(recorded.standardError)")
                // Not proxied, and no target: the stubs answer (none yet).
                #expect(try await HTTP.get(server, "/users/octocat").status == 404)
                let result = try server.stopRecording()
                #expect(result.mappings.count == 1)
                #expect(result.mappings.first?.request.host == .equalTo("127.0.0.1", caseInsensitive: false))
                upstream.reset()
                let replayed = try Self.curl(through: server, [upstreamURL])
                #expect(replayed.standardOutput.contains("octocat"))
                let otherHost = try Self.curl(
                    through: server, ["-o", "/dev/null", "-w", "%{http_code}", "http://other.test/users/octocat"])
                #expect(otherHost.standardOutput == "404")
            }
        }

        #if os(Linux)
            @Test(
                "https:// through CONNECT: TLS ended with a certificate per host from the CA; three hosts through a cache of two"
            )
            func tunnels() async throws {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: folder) }
                let server = try startQuietServer {
                    $0.forwardProxy.certificateAuthorityDirectory = folder
                    $0.forwardProxy.maxCertificates = 2
                }
                try await shuttingDown(server) {
                    try server.stub(mappingJSON: Self.echoHost)
                    let ca = folder.appendingPathComponent("ca.crt").path
                    for host in ["a.example.com", "b.example.com", "c.example.com", "a.example.com"] {
                        let answer = try Self.curl(through: server, ["--cacert", ca, "https://\(host)/users/octocat"])
                        #expect(answer.standardOutput == "\(host) /users/octocat", "\(host): \(answer.standardError)")
                    }
                    let journal = try await HTTP.get(server, "/__admin/requests").text
                    let entry = #""absoluteUrl": "https://a.example.com/users/octocat""#
                    #expect(journal.components(separatedBy: entry).count == 3, "twice in \(journal)")
                    let untrusted = try Self.curl(through: server, ["https://a.example.com/x"])
                    #expect(untrusted.status == 60, "\(untrusted.standardError)")
                }
            }
        #endif
    }
#endif
