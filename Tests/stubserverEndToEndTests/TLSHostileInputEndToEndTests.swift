// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
// Linux only for now, as TLSClientMatrixEndToEndTests: the script drives OpenSSL's s_client.
#if os(Linux)
    import Foundation
    import StubClient
    import StubTestSupport
    import Testing

    /// The `stubserver` binary's TLS port under hostile input (`Tests/Fixtures/TLS/hostile-tls.py`): a truncated
    /// ClientHello, garbage, plain HTTP, clients that stop mid-handshake, a renegotiation attempt, and idle TLS
    /// connections held open; after all of it the server answers `/hello` on both its HTTP and HTTPS ports.
    @Suite("HTTPS hostile input end to end")
    struct TLSHostileInputEndToEndTests {
        static let script = Paths.repositoryRoot.appendingPathComponent("Tests/Fixtures/TLS/hostile-tls.py")

        @Test(
            "truncated and garbage handshakes, plain HTTP, stalled handshakes, renegotiation, 200 idle TLS connections: the server still serves both ports"
        )
        func hostileInput() async throws {
            let server = try await offPool { try HTTPSStubServer.launch() }
            defer { server.stop() }
            let httpPort = try #require(server.httpURL?.port)
            // 200 connections, fewer under a low descriptor limit (CI runs this under `ulimit -n 256`): the script and
            // the server each hold one descriptor per connection, and need a few dozen of their own.
            let idle = max(16, min(200, OpenFileLimit.soft - 48))
            let outcome = try await offPool {
                try ChildProcess.run(
                    URL(fileURLWithPath: "/usr/bin/env"),
                    [
                        "python3", Self.script.path, "--https-port", String(server.httpsPort), "--http-port",
                        String(httpPort), "--cafile", server.caCertificate.path, "--idle", String(idle)
                    ],
                    timeout: .seconds(300))
            }
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any],
                "hostile-tls.py printed: \(outcome.standardOutput)\n\(outcome.standardError)")
            let cases = try #require(report["cases"] as? [String: [String: Any]])
            for name in [
                "truncated-hello", "garbage", "plain-http", "renegotiation", "idle", "stalled-hello",
                "stalled-finished", "after"
            ] {
                let result = try #require(cases[name], "no case \(name) in \(outcome.standardOutput)")
                #expect(result["ok"] as? Bool == true, "\(name): \(result["detail"] ?? "")")
            }
            #expect(outcome.succeeded, "\(outcome.standardOutput)\n\(outcome.standardError)")
            // Still the same process, serving.
            #expect(
                server.process.waitForExit(timeout: .zero) == nil, "the server exited: \(server.process.standardError)")
            let after = try await offPool {
                try Tool.run(
                    "curl",
                    ["-sS", "--max-time", "20", "--cacert", server.caCertificate.path, server.httpsURL("/hello")])
            }
            #expect(after.standardOutput == "Hello, stubserver", "\(after.standardError)")
            #expect(server.stop() == .exited(0), "\(server.process.standardError)")
        }
    }
#endif
