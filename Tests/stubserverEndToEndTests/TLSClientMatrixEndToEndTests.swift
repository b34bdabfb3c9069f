// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
// Linux only for now: the tools' output read here is OpenSSL's (a Mac's openssl is LibreSSL, its curl
// SecureTransport's or LibreSSL's), and the server's TLS there is Network.framework's, not run on this machine.
#if os(Linux)
    import Foundation
    import StubClient
    import StubTestSupport
    import Testing

    /// The `stubserver` binary serving HTTPS (`--https-port 0 --ca-dir TEMP`) to real clients, each trusting the CA
    /// the server made and nothing else: curl, Python's `ssl`, `openssl s_client` over TLS 1.2 and 1.3 with ALPN,
    /// Python's `websockets` over `wss://`, headless Chromium with the CA in an NSS database; and `--https-only`.
    @Suite("HTTPS client matrix end to end")
    struct TLSClientMatrixEndToEndTests {
        static let hello = "Hello, stubserver"

        @Test("curl: --cacert verifies (localhost and 127.0.0.1), without it curl exits 60; the CA is served")
        func curlVerifies() async throws {
            let server = try await offPool { try HTTPSStubServer.launch() }
            defer { server.stop() }
            let ca = server.caCertificate.path
            for host in ["localhost", "127.0.0.1"] {
                let trusted = try await offPool {
                    try Tool.run(
                        "curl", ["-sS", "--max-time", "20", "--cacert", ca, server.httpsURL(host: host, "/hello")])
                }
                #expect(trusted.succeeded, "curl --cacert https://\(host): \(trusted.standardError)")
                #expect(trusted.standardOutput == Self.hello)
            }
            let untrusted = try await offPool {
                try Tool.run("curl", ["-sS", "--max-time", "20", server.httpsURL("/hello")])
            }
            #expect(untrusted.exited && untrusted.status == 60, "curl without --cacert: \(untrusted.standardError)")

            // GET /__admin/certs/ca.crt, over HTTP and over HTTPS, is the CA certificate in the folder, and no key.
            let file = try String(contentsOf: server.caCertificate, encoding: .utf8)
            #expect(file.hasPrefix("-----BEGIN CERTIFICATE-----"))
            let httpBase = try #require(server.httpURL)
            for url in [httpBase.absoluteString + "/__admin/certs/ca.crt", server.httpsURL("/__admin/certs/ca.crt")] {
                let served = try await offPool {
                    try Tool.run("curl", ["-sS", "--max-time", "20", "--cacert", ca, url])
                }
                #expect(served.succeeded, "\(url): \(served.standardError)")
                #expect(served.standardOutput == file, "\(url) serves the CA certificate")
                #expect(!served.standardOutput.contains("PRIVATE KEY"))
            }
        }

        @Test("curl over TLS 1.2 and TLS 1.3: curl offers h2 and http/1.1, the server accepts http/1.1")
        func curlVersionsAndALPN() async throws {
            let server = try await offPool { try HTTPSStubServer.launch() }
            defer { server.stop() }
            for (version, flags) in [("TLSv1.2", ["--tlsv1.2", "--tls-max", "1.2"]), ("TLSv1.3", ["--tlsv1.3"])] {
                let outcome = try await offPool {
                    try Tool.run(
                        "curl",
                        ["-sS", "-v", "--max-time", "20", "--cacert", server.caCertificate.path] + flags
                            + [server.httpsURL(host: "localhost", "/users/octocat")])
                }
                #expect(outcome.succeeded, "\(version): \(outcome.standardError)")
                #expect(outcome.standardOutput.contains("\"login\""), "\(version): \(outcome.standardOutput)")
                #expect(outcome.standardError.contains("SSL connection using \(version) "), "\(outcome.standardError)")
                #expect(outcome.standardError.contains("ALPN: server accepted http/1.1"), "\(outcome.standardError)")
            }
        }

        static let pythonClient = """
            import http.client, json, ssl, sys
            host, port, cafile, version = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
            context = ssl.create_default_context(cafile=cafile)
            context.set_alpn_protocols(["http/1.1"])
            if version == "1.2":
                context.maximum_version = ssl.TLSVersion.TLSv1_2
            connection = http.client.HTTPSConnection(host, port, context=context, timeout=30)
            connection.request("GET", "/hello")
            response = connection.getresponse()
            body = response.read().decode()
            print(json.dumps({"status": response.status, "body": body, "version": connection.sock.version(),
                              "alpn": connection.sock.selected_alpn_protocol()}))
            connection.close()
            """

        @Test("Python ssl and http.client with the CA as cafile: TLS 1.2 and 1.3, ALPN http/1.1")
        func pythonHTTPClient() async throws {
            let server = try await offPool { try HTTPSStubServer.launch() }
            defer { server.stop() }
            for (host, version, expected) in [
                ("localhost", "default", "TLSv1.3"), ("127.0.0.1", "default", "TLSv1.3"),
                ("localhost", "1.2", "TLSv1.2")
            ] {
                let output = try await offPool {
                    try ChildProcess.python(
                        Self.pythonClient, [host, String(server.httpsPort), server.caCertificate.path, version],
                        timeout: .seconds(60))
                }
                let seen = try #require(
                    try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "python: \(output)")
                #expect(seen["status"] as? Int == 200, "\(host) \(version): \(output)")
                #expect(seen["body"] as? String == Self.hello)
                #expect(seen["version"] as? String == expected, "\(host) \(version): \(output)")
                #expect(seen["alpn"] as? String == "http/1.1", "\(host) \(version): \(output)")
            }
        }

        /// `openssl s_client … < /dev/null`: the handshake, its summary, then close_notify.
        static func sClient(_ server: HTTPSStubServer, _ flags: [String]) async throws -> String {
            let outcome = try await offPool {
                try Tool.run(
                    "openssl",
                    [
                        "s_client", "-connect", "127.0.0.1:\(server.httpsPort)", "-servername", "localhost", "-CAfile",
                        server.caCertificate.path, "-verify_return_error", "-verify_hostname", "localhost"
                    ] + flags,
                    timeout: .seconds(60))
            }
            return outcome.standardOutput + outcome.standardError
        }

        @Test("openssl s_client: -tls1_2 and -tls1_3 with -alpn http/1.1 verify and get http/1.1; -alpn h2 gets no h2")
        func opensslSClient() async throws {
            let server = try await offPool { try HTTPSStubServer.launch() }
            defer { server.stop() }
            for (flag, version) in [("-tls1_2", "TLSv1.2"), ("-tls1_3", "TLSv1.3")] {
                let text = try await Self.sClient(server, [flag, "-alpn", "http/1.1"])
                #expect(text.contains("New, \(version), Cipher is "), "\(flag): \(text)")
                #expect(text.contains("ALPN protocol: http/1.1"), "\(flag): \(text)")
                #expect(text.contains("Verify return code: 0 (ok)"), "\(flag): \(text)")
            }
            // Only h2 offered: the server either completes without ALPN or refuses (no_application_protocol), and
            // in no case picks h2.
            let h2 = try await Self.sClient(server, ["-alpn", "h2"])
            #expect(!h2.contains("ALPN protocol: h2"), "\(h2)")
            #expect(h2.contains("No ALPN negotiated") || h2.contains("no application protocol"), "\(h2)")
            // The server still serves after each of them.
            let after = try await offPool {
                try Tool.run(
                    "curl",
                    ["-sS", "--max-time", "20", "--cacert", server.caCertificate.path, server.httpsURL("/hello")])
            }
            #expect(after.standardOutput == Self.hello, "\(after.standardError)")
        }

        static let chatStub = #"""
            {"request": {"method": "GET", "urlPath": "/chat"},
             "response": {"status": 101},
             "metadata": {"stubserver": {"webSocket": {
               "onConnect": [{"text": "welcome"}],
               "onMessage": [{"matches": {"equalTo": "ping"}, "send": [{"text": "pong"}]},
                             {"matches": {"matchesJsonPath": "$.bye"}, "close": {"code": 4000, "reason": "bye"}}]}}}}
            """#

        /// `URI CAFILE [PROXY]`: welcome, ping → pong, a JSON message that closes; prints what it saw as JSON.
        /// `wss://` trusts CAFILE; with PROXY the connection goes through that HTTP proxy (`CONNECT`).
        static let webSocketScript = """
            import json, ssl, sys
            from websockets.sync.client import connect
            uri, cafile = sys.argv[1], sys.argv[2]
            options = {"ssl": ssl.create_default_context(cafile=cafile)} if uri.startswith("wss:") else {}
            if len(sys.argv) > 3:
                options["proxy"] = sys.argv[3]
            seen = {}
            with connect(uri, open_timeout=30, close_timeout=30, **options) as ws:
                seen["tls"] = ws.socket.version() if hasattr(ws.socket, "version") else None
                seen["welcome"] = ws.recv(timeout=30)
                ws.send("ping")
                seen["pong"] = ws.recv(timeout=30)
                ws.send(json.dumps({"bye": True}))
                try:
                    ws.recv(timeout=30)
                except Exception as error:
                    seen["closed"] = type(error).__name__
                received = ws.protocol.close_rcvd
                seen["close"] = [received.code, received.reason] if received else None
            print(json.dumps(seen))
            """

        @Test(
            "Python websockets over wss://: welcome, ping → pong, a JSON message closes with 4000",
            .enabled(
                if: PythonWebSockets.interpreter != nil,
                "no Python with `websockets`: set STUBSERVER_PYTHON_WEBSOCKETS to one (pip install websockets)"))
        func pythonWebSocketsOverTLS() async throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/chat.json", Self.chatStub)
            let server = try await offPool {
                try HTTPSStubServer.launch(stubs: "stubs", currentDirectory: temp.root)
            }
            defer { server.stop() }
            let output = try await offPool {
                try PythonWebSockets.run(
                    Self.webSocketScript,
                    ["wss://localhost:\(server.httpsPort)/chat", server.caCertificate.path], timeout: .seconds(120))
            }
            let seen = try #require(
                try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "python printed: \(output)"
            )
            #expect(seen["welcome"] as? String == "welcome")
            #expect(seen["pong"] as? String == "pong")
            #expect(seen["close"] as? [AnyHashable] == [4000, "bye"])
            #expect((seen["tls"] as? String)?.hasPrefix("TLSv1.") ?? true, "\(output)")
        }

        static let browserTools: (available: Bool, reason: String) = {
            let missing = ["chromium", "certutil"].filter { !Tool.isInstalled($0) }
            return (
                missing.isEmpty,
                "not installed: \(missing.joined(separator: ", ")) (apt-get install -y chromium libnss3-tools)"
            )
        }()

        @Test(
            "headless Chromium with the CA in an NSS database loads the page; without it, an untrusted-authority error",
            .enabled(if: browserTools.available, Comment(rawValue: browserTools.reason)))
        func chromium() async throws {
            let server = try await offPool { try HTTPSStubServer.launch() }
            defer { server.stop() }
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("stubserver-chromium-\(UUID())")
            let bare = home.appendingPathComponent("bare")
            let trusting = home.appendingPathComponent("trusting")
            try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: home) }
            try await Tool.makeNSSDatabase(home: trusting, trusting: server.caCertificate)
            let url = server.httpsURL(host: "localhost", "/hello")
            func dumpDOM(home: URL) async throws -> ChildProcess.Outcome {
                try await offPool {
                    try Tool.run(
                        "chromium",
                        [
                            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                            "--user-data-dir=\(home.appendingPathComponent("profile").path)", "--dump-dom", url
                        ],
                        environment: ["HOME": home.path], timeout: .seconds(120))
                }
            }
            let trusted = try await dumpDOM(home: trusting)
            #expect(
                trusted.standardOutput.contains(Self.hello),
                "stdout: \(trusted.standardOutput)\n\(trusted.standardError)")
            let untrusting = try await dumpDOM(home: bare)
            #expect(!untrusting.standardOutput.contains(Self.hello), "\(untrusting.standardOutput)")
            #expect(untrusting.standardError.contains("ERR_CERT_AUTHORITY_INVALID"), "\(untrusting.standardError)")
        }

        @Test("--https-only: one Listening line, https; the TLS port closes a plain-HTTP request; HTTPS serves")
        func httpsOnly() async throws {
            let server = try await offPool { try HTTPSStubServer.launch(arguments: ["--https-only"]) }
            defer { server.stop() }
            let listening = server.process.standardOutput.split(separator: "\n").filter {
                $0.hasPrefix("Listening on ")
            }
            #expect(listening == ["Listening on \(server.httpsURL.absoluteString)"], "\(server.process.standardOutput)")
            #expect(server.httpURL == nil)
            let secure = try await offPool {
                try Tool.run(
                    "curl",
                    ["-sS", "--max-time", "20", "--cacert", server.caCertificate.path, server.httpsURL("/hello")])
            }
            #expect(secure.succeeded && secure.standardOutput == Self.hello, "\(secure.standardError)")
            // Plain HTTP on the TLS port: an answer other than a stub's (no 200), and an end, not curl's timeout (28).
            let plain = try await offPool {
                try Tool.run(
                    "curl",
                    [
                        "-sS", "--max-time", "20", "-o", "/dev/null", "-w", "%{http_code}",
                        "http://127.0.0.1:\(server.httpsPort)/hello"
                    ])
            }
            #expect(plain.standardOutput != "200", "plain HTTP on the TLS port: \(plain.standardOutput)")
            #expect(plain.status != 28, "curl timed out: the plain-HTTP request was left hanging")
            // And the server is still serving HTTPS after it.
            let again = try await offPool {
                try Tool.run(
                    "curl",
                    ["-sS", "--max-time", "20", "--cacert", server.caCertificate.path, server.httpsURL("/hello")])
            }
            #expect(again.standardOutput == Self.hello, "\(again.standardError)")
        }
    }
#endif
