// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
// Linux only for now, like the HTTPS client matrix: the server ends TLS inside a tunnel on Linux only (OpenSSL).
#if os(Linux)
    import Foundation
    import StubClient
    import StubTestSupport
    import Testing

    /// The `stubserver` binary as a forward proxy on its HTTP port, with real clients pointed at it: curl `-x`,
    /// Python `requests` with `proxies=`, Python `websockets` with `proxy=`, headless Chromium with
    /// `--proxy-server`. Stubs match on the host the request was for (`api.example.com`, never resolved: the
    /// proxy answers it), over plain HTTP in absolute form and inside `CONNECT` tunnels (`:443` with a certificate
    /// from the `--ca-dir` CA, `:80` plain). Also the bounds (`--proxy-connect-port`, `--proxy-allow-host`) and
    /// `--proxy-unmatched` to a second, real stubserver. All traffic stays on loopback.
    @Suite("Forward proxy end to end")
    struct ForwardProxyEndToEndTests {
        static let profile = #"{"name": "proxied profile"}"#
        static let page = "<html><head><title>Proxied</title></head><body><h1>Proxied page</h1></body></html>"

        /// `GET /v1/profile` for `api.example.com`, `GET /page` (HTML) for it, and the WebSocket `/chat` for
        /// `chat.example.com`.
        static func proxyStubs() throws -> TemporaryStubs {
            let temp = try TemporaryStubs()
            try temp.write(
                "mappings/profile.json",
                #"""
                {"request": {"method": "GET", "urlPath": "/v1/profile", "host": {"equalTo": "api.example.com"}},
                 "response": {"status": 200, "body": "{\"name\": \"proxied profile\"}",
                              "headers": {"Content-Type": "application/json"}}}
                """#)
            try temp.write(
                "mappings/page.json",
                #"""
                {"request": {"method": "GET", "urlPath": "/page", "host": {"equalTo": "api.example.com"}},
                 "response": {"status": 200, "body": "\#(page)",
                              "headers": {"Content-Type": "text/html; charset=utf-8"}}}
                """#)
            try temp.write(
                "mappings/chat.json",
                #"""
                {"request": {"method": "GET", "urlPath": "/chat", "host": {"equalTo": "chat.example.com"}},
                 "response": {"status": 101},
                 "metadata": {"stubserver": {"webSocket": {
                   "onConnect": [{"text": "welcome"}],
                   "onMessage": [{"matches": {"equalTo": "ping"}, "send": [{"text": "pong"}]},
                                 {"matches": {"matchesJsonPath": "$.bye"}, "close": {"code": 4000, "reason": "bye"}}]}}}}
                """#)
            return temp
        }

        /// The server on `temp`'s stubs, with `--ca-dir` (and `--https-port 0`, unused here) and `arguments`.
        static func launch(_ temp: TemporaryStubs, _ arguments: [String] = []) async throws -> HTTPSStubServer {
            try await offPool {
                try HTTPSStubServer.launch(stubs: "stubs", arguments: arguments, currentDirectory: temp.root)
            }
        }

        /// `http://127.0.0.1:PORT`: the server's HTTP port, the proxy.
        static func proxyURL(_ server: HTTPSStubServer) throws -> String {
            try #require(server.httpURL, "no HTTP port: \(server.process.standardOutput)").absoluteString
        }

        /// `curl -sS -x PROXY --noproxy '' --cacert CA arguments`, bounded (`--max-time 30`).
        static func curl(proxy: String, ca: String, _ arguments: [String]) async throws -> ChildProcess.Outcome {
            try await offPool {
                try Tool.run(
                    "curl", ["-sS", "--max-time", "30", "-x", proxy, "--noproxy", "", "--cacert", ca] + arguments,
                    timeout: .seconds(90))
            }
        }

        /// ``curl(proxy:ca:_:)`` with `server` as the proxy and its CA.
        static func curl(_ server: HTTPSStubServer, _ arguments: [String]) async throws -> ChildProcess.Outcome {
            try await curl(proxy: try proxyURL(server), ca: server.caCertificate.path, arguments)
        }

        /// `curl … -w '\n%{http_code}' URL` through `proxy`, trusting `ca`: the status and the body.
        static func fetch(proxy: String, ca: String, _ url: String, _ extra: [String] = []) async throws
            -> (status: String, body: String, outcome: ChildProcess.Outcome)
        {
            let outcome = try await curl(proxy: proxy, ca: ca, extra + ["-w", "\n%{http_code}", url])
            let text = outcome.standardOutput
            guard let newline = text.lastIndex(of: "\n") else { return ("", text, outcome) }
            return (String(text[text.index(after: newline)...]), String(text[..<newline]), outcome)
        }

        /// ``fetch(proxy:ca:_:_:)`` with `server` as the proxy and its CA.
        static func fetch(_ server: HTTPSStubServer, _ url: String, _ extra: [String] = []) async throws
            -> (status: String, body: String, outcome: ChildProcess.Outcome)
        {
            try await fetch(proxy: try proxyURL(server), ca: server.caCertificate.path, url, extra)
        }

        /// The journal's requests (`GET /__admin/requests` on the server's own port, not through the proxy).
        static func journal(_ server: HTTPSStubServer) async throws -> [[String: Any]] {
            let url = try proxyURL(server) + "/__admin/requests"
            let outcome = try await offPool {
                try Tool.run("curl", ["-sS", "--max-time", "30", "--noproxy", "*", url], timeout: .seconds(90))
            }
            #expect(outcome.succeeded, "\(url): \(outcome.standardError)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any],
                "journal: \(outcome.standardOutput)")
            let entries = try #require(object["requests"] as? [[String: Any]], "journal: \(outcome.standardOutput)")
            return entries.compactMap { $0["request"] as? [String: Any] }
        }

        @Test("curl -x: http:// and https:// (CONNECT :443, the CA's leaf) answered by stubs; near-miss 404; journal")
        func curlThroughProxy() async throws {
            let temp = try Self.proxyStubs()
            let server = try await Self.launch(temp)
            defer { server.stop() }
            for scheme in ["http", "https"] {
                let url = "\(scheme)://api.example.com/v1/profile"
                let answer = try await Self.fetch(server, url, ["-v"])
                #expect(answer.outcome.succeeded, "\(url): \(answer.outcome.standardError)")
                #expect(answer.status == "200", "\(url): \(answer.body)")
                #expect(answer.body == Self.profile, "\(url): \(answer.body)")
                if scheme == "https" {
                    #expect(
                        answer.outcome.standardError.contains("200 Connection Established"),
                        "\(answer.outcome.standardError)")
                    #expect(
                        answer.outcome.standardError.contains("subject: CN=api.example.com")
                            || answer.outcome.standardError.contains("api.example.com\" matched cert's"),
                        "the leaf is for api.example.com: \(answer.outcome.standardError)")
                }
                let missing = try await Self.fetch(server, "\(scheme)://api.example.com/v1/nowhere")
                #expect(missing.outcome.succeeded, "\(missing.outcome.standardError)")
                #expect(missing.status == "404", "\(scheme) unmatched: \(missing.status) \(missing.body)")
                #expect(
                    missing.body.contains("No stub matched GET \(scheme)://api.example.com/v1/nowhere")
                        || missing.body.contains("No stub matched GET /v1/nowhere"),
                    "\(scheme) unmatched: \(missing.body)")
                #expect(missing.body.contains("Closest stubs:"), "\(scheme) unmatched: \(missing.body)")
                #expect(
                    missing.body.contains(#"expected urlPath "/v1/profile", got "/v1/nowhere""#),
                    "the near miss names the closest stub: \(missing.body)")
            }
            // A stub for api.example.com does not answer for another host.
            let otherHost = try await Self.fetch(server, "https://other.example.com/v1/profile")
            #expect(otherHost.status == "404", "other.example.com: \(otherHost.status) \(otherHost.body)")

            let requests = try await Self.journal(server)
            let urls = requests.compactMap { $0["absoluteUrl"] as? String }
            #expect(urls.contains("https://api.example.com/v1/profile"), "journal URLs: \(urls)")
            #expect(urls.contains("http://api.example.com/v1/profile"), "journal URLs: \(urls)")
            let secure = requests.first { $0["absoluteUrl"] as? String == "https://api.example.com/v1/profile" }
            #expect(secure?["host"] as? String == "api.example.com", "journal entry: \(String(describing: secure))")
        }

        static let requestsScript = """
            import json, sys, requests
            proxy, cafile = sys.argv[1], sys.argv[2]
            session = requests.Session()
            session.trust_env = False
            seen = {}
            for url in sys.argv[3:]:
                response = session.get(url, proxies={"http": proxy, "https": proxy}, verify=cafile, timeout=30)
                seen[url] = {"status": response.status_code, "body": response.text,
                             "type": response.headers.get("Content-Type")}
            print(json.dumps(seen))
            """

        @Test("Python requests with proxies= and verify=CA: http:// and https:// answered from stubs")
        func pythonRequests() async throws {
            let temp = try Self.proxyStubs()
            let server = try await Self.launch(temp)
            defer { server.stop() }
            let urls = [
                "http://api.example.com/v1/profile", "https://api.example.com/v1/profile",
                "https://api.example.com/v1/nowhere"
            ]
            let proxy = try Self.proxyURL(server)
            let output = try await offPool {
                try ChildProcess.python(
                    Self.requestsScript, [proxy, server.caCertificate.path] + urls, timeout: .seconds(120))
            }
            let seen = try #require(
                try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String: Any]],
                "python: \(output)")
            for url in urls.prefix(2) {
                #expect(seen[url]?["status"] as? Int == 200, "\(url): \(output)")
                #expect(seen[url]?["body"] as? String == Self.profile, "\(url): \(output)")
                #expect(seen[url]?["type"] as? String == "application/json", "\(url): \(output)")
            }
            #expect(seen[urls[2]]?["status"] as? Int == 404, "\(output)")
        }

        @Test(
            "Python websockets with proxy=: ws:// (CONNECT :80) and wss:// (CONNECT :443, the CA) reach the host's stub",
            .enabled(
                if: PythonWebSockets.interpreter != nil,
                "no Python with `websockets`: set STUBSERVER_PYTHON_WEBSOCKETS to one (pip install websockets)"))
        func pythonWebSockets() async throws {
            let temp = try Self.proxyStubs()
            let server = try await Self.launch(temp)
            defer { server.stop() }
            let proxy = try Self.proxyURL(server)
            for uri in ["ws://chat.example.com/chat", "wss://chat.example.com/chat"] {
                let output = try await offPool {
                    try PythonWebSockets.run(
                        TLSClientMatrixEndToEndTests.webSocketScript, [uri, server.caCertificate.path, proxy],
                        timeout: .seconds(120))
                }
                let seen = try #require(
                    try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
                    "\(uri): python printed: \(output)")
                #expect(seen["welcome"] as? String == "welcome", "\(uri): \(output)")
                #expect(seen["pong"] as? String == "pong", "\(uri): \(output)")
                #expect(seen["close"] as? [AnyHashable] == [4000, "bye"], "\(uri): \(output)")
                if uri.hasPrefix("wss:") {
                    #expect((seen["tls"] as? String)?.hasPrefix("TLSv1.") == true, "\(uri): \(output)")
                }
            }
            let urls = try await Self.journal(server).compactMap { $0["absoluteUrl"] as? String }
            #expect(urls.contains("https://chat.example.com/chat"), "journal URLs: \(urls)")
            #expect(urls.contains("http://chat.example.com/chat"), "journal URLs: \(urls)")
        }

        @Test(
            "headless Chromium with --proxy-server and the CA in an NSS database loads https://api.example.com/page",
            .enabled(
                if: TLSClientMatrixEndToEndTests.browserTools.available,
                Comment(rawValue: TLSClientMatrixEndToEndTests.browserTools.reason)))
        func chromium() async throws {
            let temp = try Self.proxyStubs()
            let server = try await Self.launch(temp)
            defer { server.stop() }
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("stubserver-chromium-\(UUID())")
            defer { try? FileManager.default.removeItem(at: home) }
            try await Tool.makeNSSDatabase(home: home, trusting: server.caCertificate)
            let proxy = try Self.proxyURL(server)
            let loaded = try await offPool {
                try Tool.run(
                    "chromium",
                    [
                        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                        "--user-data-dir=\(home.appendingPathComponent("profile").path)",
                        "--proxy-server=\(proxy)", "--dump-dom", "https://api.example.com/page"
                    ],
                    environment: ["HOME": home.path], timeout: .seconds(120))
            }
            #expect(
                loaded.standardOutput.contains("<h1>Proxied page</h1>"),
                "stdout: \(loaded.standardOutput)\n\(loaded.standardError)")
            let urls = try await Self.journal(server).compactMap { $0["absoluteUrl"] as? String }
            #expect(urls.contains("https://api.example.com/page"), "journal URLs: \(urls)")
        }

        @Test("CONNECT bounds: :8443 refused 403 unless --proxy-connect-port 8443; --proxy-allow-host refuses others")
        func connectBounds() async throws {
            let temp = try Self.proxyStubs()
            let url8443 = "https://api.example.com:8443/v1/profile"
            do {
                let server = try await Self.launch(temp)
                defer { server.stop() }
                let refused = try await Self.curl(server, [url8443])
                #expect(
                    refused.exited && refused.status == 56, "curl :8443: \(refused.status) \(refused.standardError)")
                #expect(
                    refused.standardError.contains("CONNECT tunnel failed, response 403"), "\(refused.standardError)")
                #expect(refused.standardOutput.isEmpty, "\(refused.standardOutput)")
            }
            do {
                let server = try await Self.launch(temp, ["--proxy-connect-port", "8443"])
                defer { server.stop() }
                let answer = try await Self.fetch(server, url8443)
                #expect(answer.outcome.succeeded, "\(url8443): \(answer.outcome.standardError)")
                #expect(answer.status == "200" && answer.body == Self.profile, "\(answer.status) \(answer.body)")
                // 443 still works with the extra port.
                let standard = try await Self.fetch(server, "https://api.example.com/v1/profile")
                #expect(standard.body == Self.profile, "\(standard.outcome.standardError)")
            }
            do {
                let server = try await Self.launch(temp, ["--proxy-allow-host", "api.example.com"])
                defer { server.stop() }
                let other = try await Self.curl(server, ["https://other.example.com/"])
                #expect(other.exited && other.status == 56, "other.example.com: \(other.status) \(other.standardError)")
                #expect(other.standardError.contains("CONNECT tunnel failed, response 403"), "\(other.standardError)")
                let otherPlain = try await Self.fetch(server, "http://other.example.com/")
                #expect(otherPlain.status == "403", "http://other.example.com: \(otherPlain.status) \(otherPlain.body)")
                #expect(otherPlain.body.contains("--proxy-allow-host"), "\(otherPlain.body)")
                for scheme in ["http", "https"] {
                    let allowed = try await Self.fetch(server, "\(scheme)://api.example.com/v1/profile")
                    #expect(allowed.outcome.succeeded, "\(scheme): \(allowed.outcome.standardError)")
                    #expect(allowed.body == Self.profile, "\(scheme): \(allowed.status) \(allowed.body)")
                }
                #expect(
                    server.process.waitForStandardError(containing: "CONNECT other.example.com:443 answered 403"),
                    "stderr: \(server.process.standardError)")
            }
        }

        @Test("--proxy-unmatched: an unmatched proxied request gets its real origin's answer (a second stubserver)")
        func proxyUnmatched() async throws {
            let upstreamStubs = try TemporaryStubs()
            try upstreamStubs.write("mappings/upstream.json", simpleMapping("/upstream-only", body: "from upstream"))
            let upstream = try await offPool {
                try StubServerProcess.launch(["--stubs", "stubs", "--port", "0"], currentDirectory: upstreamStubs.root)
            }
            defer { upstream.stop() }
            let port = try #require(upstream.baseURL.port, "upstream: \(upstream.baseURL)")
            let url = "http://127.0.0.1:\(port)/upstream-only"
            let temp = try Self.proxyStubs()
            do {
                let server = try await Self.launch(temp, ["--proxy-unmatched"])
                defer { server.stop() }
                let passed = try await Self.fetch(server, url)
                #expect(passed.outcome.succeeded, "\(url): \(passed.outcome.standardError)")
                #expect(passed.status == "200" && passed.body == "from upstream", "\(passed.status) \(passed.body)")
                // Stubs still win over the origin.
                let stubbed = try await Self.fetch(server, "http://api.example.com/v1/profile")
                #expect(stubbed.body == Self.profile, "\(stubbed.status) \(stubbed.body)")
            }
            do {
                let server = try await Self.launch(temp)
                defer { server.stop() }
                let kept = try await Self.fetch(server, url)
                #expect(kept.outcome.succeeded, "\(url): \(kept.outcome.standardError)")
                #expect(kept.status == "404", "without --proxy-unmatched: \(kept.status) \(kept.body)")
                #expect(!kept.body.contains("from upstream"), "\(kept.body)")
            }
        }
        static let halfConnectScript = """
            import json, socket, sys
            connection = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=120)
            connection.sendall(b"CONNECT api.example.com:443 HTTP/1.1\\r\\n")
            answer, ended = b"", "closed"
            try:
                while True:
                    chunk = connection.recv(4096)
                    if not chunk:
                        break
                    answer += chunk
            except ConnectionResetError:
                ended = "reset"
            print(json.dumps({"ended": ended, "answer": answer.decode("latin-1")}))
            """

        @Test("a CONNECT head never finished (one line, then nothing) is ended by the server: 408, then closed")
        func unfinishedConnectIsClosed() async throws {
            let temp = try Self.proxyStubs()
            let server = try await Self.launch(temp)
            defer { server.stop() }
            let port = try #require(server.httpURL?.port, "\(server.process.standardOutput)")
            // The server's request-head timeout (10 s, no option) ends it; Python gives up after 120 s.
            let output = try await offPool {
                try ChildProcess.python(Self.halfConnectScript, [String(port)], timeout: .seconds(180))
            }
            let seen = try #require(
                try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String], "python: \(output)")
            #expect(seen["answer"]?.hasPrefix("HTTP/1.1 408 ") == true, "\(output)")
            #expect(seen["ended"] == "closed", "\(output)")
            // The server still proxies.
            let after = try await Self.fetch(server, "https://api.example.com/v1/profile")
            #expect(after.body == Self.profile, "\(after.status) \(after.body) \(after.outcome.standardError)")
        }

        /// Whether this machine allows a private mount namespace, which ``TLSUpstream/launchTrusting(_:currentDirectory:)``
        /// needs to give the server a trust store of its own.
        static let mountNamespace: (available: Bool, reason: String) = {
            let probe = try? ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["unshare", "--mount", "sh", "-c", #"mount --bind "$0" /etc/ssl/certs"#, NSTemporaryDirectory()],
                timeout: .seconds(60))
            let tools = ["openssl", "python3", "unshare"].allSatisfy { Tool.isInstalled($0) }
            return (
                tools && probe?.succeeded == true,
                "needs openssl, python3 and a private mount namespace (unshare --mount, then mount --bind): "
                    + (probe?.standardError ?? "unshare did not run")
            )
        }()

        @Test(
            "--proxy-unmatched inside a CONNECT tunnel: on to the https:// origin, verified by the system trust store",
            .enabled(if: mountNamespace.available, Comment(rawValue: mountNamespace.reason)))
        func proxyUnmatchedThroughTLSTunnel() async throws {
            let upstream = try await offPool { try TLSUpstream() }
            defer { upstream.stop() }
            let port = try #require(upstream.baseURL.port, "upstream: \(upstream.baseURL)")
            let temp = try Self.proxyStubs()
            let caDirectory = temp.root.appendingPathComponent("ca", isDirectory: true)
            let made = try await offPool { try StubServerProcess.run(["ca", "export", "--ca-dir", caDirectory.path]) }
            #expect(made.termination == .exited(0), "stubserver ca export: \(made.stderr)")
            let server = try await offPool {
                try upstream.launchTrusting(
                    [
                        "--stubs", "stubs", "--ca-dir", caDirectory.path, "--proxy-unmatched", "--proxy-connect-port",
                        String(port)
                    ],
                    currentDirectory: temp.root)
            }
            defer { server.stop() }
            let proxy = server.baseURL.absoluteString
            let ca = caDirectory.appendingPathComponent("ca.crt").path
            let url = "https://localhost:\(port)/upstream-only?from=tunnel"
            let passed = try await Self.fetch(proxy: proxy, ca: ca, url, ["-H", "X-Test: through the tunnel"])
            #expect(passed.outcome.succeeded, "\(url): \(passed.outcome.standardError)")
            #expect(passed.status == "200", "\(url): \(passed.status) \(passed.body)")
            let seen = try #require(
                try JSONSerialization.jsonObject(with: Data(passed.body.utf8)) as? [String: Any],
                "the upstream's echo: \(passed.body)")
            #expect(seen["path"] as? String == "/upstream-only?from=tunnel", "\(passed.body)")
            #expect(seen["xTest"] as? String == "through the tunnel", "\(passed.body)")
            #expect(
                upstream.requests.contains { $0.contains(#""path": "/upstream-only?from=tunnel""#) },
                "upstream log: \(upstream.requests)")
            // A stub still wins inside the same kind of tunnel.
            let stubbed = try await Self.fetch(proxy: proxy, ca: ca, "https://api.example.com/v1/profile")
            #expect(stubbed.body == Self.profile, "\(stubbed.status) \(stubbed.body) \(stubbed.outcome.standardError)")
        }
    }
#endif
