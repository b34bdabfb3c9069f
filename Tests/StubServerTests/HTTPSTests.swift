import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// ``StubServer/Configuration/https``: the same stubs, admin API, templates and journal over TLS, with a leaf
/// signed by a local certificate authority in a temporary folder, checked with the real `curl`. Linux (the
/// engine's OpenSSL) and macOS (Network.framework, whose in-memory identity needs the Xcode 26 SDK) spawn curl;
/// other platforms cannot.
#if os(Linux) || (os(macOS) && compiler(>=6.2))
    @Suite("HTTPS")
    struct HTTPSTests {
        /// A quiet server with HTTPS from a local CA made in a fresh folder, and that folder.
        static func start(
            only: Bool = false, hosts: [String] = []
        ) throws -> (server: StubServer, authority: URL) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString)")
            let server = try startQuietServer { configuration in
                configuration.https = .init(only: only, certificate: .localAuthority(directory: folder))
                configuration.virtualHosts = hosts
            }
            return (server, folder)
        }

        /// `curl -sS --cacert CA URL` with `arguments`: its stdout, or a failure with its stderr.
        static func curl(_ url: URL, trusting authority: URL, _ arguments: [String] = []) throws -> String {
            let outcome = try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["curl", "-sS", "--max-time", "30", "--cacert", authority.appendingPathComponent("ca.crt").path]
                    + arguments + [url.absoluteString])
            guard outcome.succeeded else { throw TestFailure("curl \(url): \(outcome.standardError)") }
            return outcome.standardOutput
        }

        @Test("Stubs, templates, the journal and the admin API answer over TLS; the CA is served, never a key")
        func servesOverTLS() async throws {
            let (server, authority) = try Self.start()
            try await shuttingDown(server) {
                let https = try #require(server.httpsBaseURL)
                #expect(https.scheme == "https" && server.baseURL.scheme == "http")
                #expect(https.port == server.httpsPort && server.httpsPort != server.port)
                try server.stub(
                    mappingJSON: """
                        {"request": {"method": "GET", "url": "/where"},
                         "response": {"body": "{{request.baseUrl}}", "transformers": ["response-template"]}}
                        """)
                let answer = try Self.curl(https.appendingPathComponent("where"), trusting: authority)
                #expect(answer == "https://127.0.0.1:\(try #require(server.httpsPort))")
                let plain = try await HTTP.get(server, "/where")
                #expect(plain.text == "\(server.baseURL.absoluteString)")
                let journal = try Self.curl(https.appendingPathComponent("__admin/requests"), trusting: authority)
                #expect(
                    journal.contains("\"absoluteUrl\": \"https://127.0.0.1:\(try #require(server.httpsPort))/where\""))
                let served = try Self.curl(
                    https.appendingPathComponent("__admin/certs/ca.crt"), trusting: authority)
                let onDisk = try String(contentsOf: authority.appendingPathComponent("ca.crt"), encoding: .utf8)
                #expect(served == onDisk)
                #expect(!served.contains("PRIVATE KEY"))
                #expect(server.certificateAuthority?.certificatePEM == onDisk)
                let wireMockPath = try Self.curl(
                    https.appendingPathComponent("__admin/certs/wiremock-ca.crt"), trusting: authority)
                #expect(wireMockPath == onDisk)
                #expect(server.hosts.first?.httpsBaseURL == https)
            }
        }

        @Test("HTTPS only: the base URL is https, and no plain port is open")
        func httpsOnly() async throws {
            let (server, authority) = try Self.start(only: true)
            try await shuttingDown(server) {
                #expect(server.baseURL.scheme == "https")
                #expect(server.port == server.httpsPort)
                let health = try Self.curl(server.baseURL.appendingPathComponent("__admin/health"), trusting: authority)
                #expect(health.contains("healthy"))
            }
        }

        @Test("A virtual host has an HTTPS port of its own, its requests matched and templated as that host's")
        func virtualHost() async throws {
            let (server, authority) = try Self.start(hosts: ["api.example.com"])
            try await shuttingDown(server) {
                try server.stub(
                    mappingJSON: """
                        {"request": {"method": "GET", "url": "/where", "host": {"equalTo": "api.example.com"}},
                         "response": {"body": "{{request.baseUrl}}", "transformers": ["response-template"]}}
                        """)
                let https = try #require(server.httpsBaseURL(for: "api.example.com"))
                #expect(https.port != server.httpsPort)
                let answer = try Self.curl(https.appendingPathComponent("where"), trusting: authority)
                #expect(answer == "https://api.example.com:\(try #require(https.port))")
            }
        }

        @Test("The local CA is made once per folder: a second server signs with the same one")
        func authorityReused() async throws {
            let (first, authority) = try Self.start()
            let second = try startQuietServer { configuration in
                configuration.https = .init(certificate: .localAuthority(directory: authority))
            }
            try await shuttingDown(first, second) {
                #expect(first.certificateAuthority?.certificateDER == second.certificateAuthority?.certificateDER)
                let answer = try Self.curl(
                    try #require(second.httpsBaseURL).appendingPathComponent("__admin/health"), trusting: authority)
                #expect(answer.contains("healthy"))
            }
        }
    }
#endif
