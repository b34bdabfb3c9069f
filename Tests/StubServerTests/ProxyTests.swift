import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// Proxy stubs and `proxy.target` (`--proxy-all`), against a second in-process server as the
/// upstream: what is forwarded, what comes back, and what a dead or slow upstream gives.
@Suite("Proxying")
struct ProxyTests {
    /// A started server with `configure` applied; stop it when done.
    static func server(_ configure: (inout StubServer.Configuration) -> Void = { _ in }) throws -> StubServer {
        var configuration = StubServer.Configuration()
        configure(&configuration)
        let server = try StubServer(configuration: configuration)
        try server.start()
        return server
    }

    @Test("A proxy stub forwards method, path, query, headers and body, and returns the upstream's answer")
    func forwardsAndReturns() async throws {
        let upstream = try Self.server()
        defer { upstream.stop() }
        upstream.stub(.post("/v2/users?page=2"), .json(["created": true], status: 201).header("X-Upstream", "yes"))
        let proxy = try Self.server()
        defer { proxy.stop() }
        proxy.stub(
            .method("ANY", pathPattern: "/api/.*"),
            .proxy(
                to: upstream.baseURL.appendingPathComponent("v2"), removingPrefix: "/api",
                addingHeaders: ["X-Added": "from-stub", "X-Replaced": "new"], removingHeaders: ["x-secret"]
            )
            .header("X-Stub", "added"))

        let fetched = try await HTTP.send(
            proxy, "POST", "/api/users?page=2",
            headers: [
                "X-Secret": "s3cret", "X-Replaced": "old", "X-Kept": "kept",
                "Content-Type": "application/json"
            ],
            body: Data(#"{"name":"octocat"}"#.utf8))

        #expect(fetched.status == 201)
        #expect(fetched.text == #"{"created":true}"#)
        #expect(fetched.header("X-Upstream") == "yes")
        #expect(fetched.header("X-Stub") == "added")
        let received = try #require(upstream.requests.first?.request)
        #expect(received.method.rawValue == "POST")
        #expect(received.target == "/v2/users?page=2")
        #expect(received.body == Array(#"{"name":"octocat"}"#.utf8))
        #expect(received.headers.first(name: "X-Kept") == "kept")
        #expect(received.headers.first(name: "X-Added") == "from-stub")
        #expect(received.headers["X-Replaced"] == ["new"])
        #expect(received.headers.first(name: "X-Secret") == nil)
        #expect(received.headers.first(name: "Host") == "127.0.0.1:\(upstream.port)")
        let logged = try #require(proxy.requests.first)
        #expect(logged.wasMatched)
        #expect(logged.responseStatus == 201)
        #expect(logged.response?.body == Array(#"{"created":true}"#.utf8))
    }

    @Test("An upstream that refuses connections gives a 502 naming the upstream URL and the reason")
    func upstreamDown() async throws {
        // A port bound without listening refuses connections, and no other test's server can take it meanwhile
        // (a stopped server's port could be handed to one).
        let closed = try RawSocket.occupyLoopbackPort(listening: false)
        defer { RawSocket.closeSocket(closed.fd) }
        let deadURL = try #require(URL(string: "http://127.0.0.1:\(closed.port)"))
        let proxy = try Self.server()
        defer { proxy.stop() }
        proxy.stub(.get("/users/octocat"), .proxy(to: deadURL))

        let fetched = try await HTTP.get(proxy, "/users/octocat")

        #expect(fetched.status == 502)
        #expect(fetched.text.contains("\(deadURL.absoluteString)/users/octocat"))
        #expect(fetched.text.contains("GET /users/octocat"))
        #expect(fetched.text.contains("refused"))
        #expect(proxy.requests.first?.responseStatus == 502)
    }

    @Test("A slow upstream gives a 504 after the proxy timeout, naming the upstream")
    func upstreamSlow() async throws {
        let upstream = try Self.server { $0.shutdownGrace = .zero }
        defer { upstream.stop() }
        upstream.stub(.get("/slow"), .text("too late").delay(.seconds(60)))
        let proxy = try Self.server { $0.proxy.timeout = .seconds(1) }
        defer { proxy.stop() }
        proxy.stub(.get("/slow"), .proxy(to: upstream.baseURL))

        let timedOut = try await HTTP.get(proxy, "/slow")

        #expect(timedOut.status == 504)
        #expect(timedOut.text.contains("\(upstream.baseURL.absoluteString)/slow"))
        #expect(timedOut.text.contains("no answer within 1"))
    }

    @Test("Forwarding to a slow upstream holds up no other client, even on a single event loop")
    func upstreamSlowServesOthers() async throws {
        // The upstream answers only when stopped (grace zero: its delayed response is dropped at once).
        let upstream = try Self.server { $0.shutdownGrace = .zero }
        defer { upstream.stop() }  // stopping twice is harmless
        upstream.stub(.get("/slow"), .text("too late").delay(.seconds(60)))
        // One event loop: if forwarding held it, the quick request could not be answered meanwhile. The proxy
        // timeout is as long as the delay, so only the quick request can finish first, however loaded the machine.
        let proxy = try Self.server {
            $0.eventLoopCount = 1
            $0.proxy.timeout = .seconds(60)
        }
        defer { proxy.stop() }
        proxy.stub(.get("/slow"), .proxy(to: upstream.baseURL))
        proxy.stub(.get("/quick"), .text("quick"))
        // Both requests go over sockets of their own from threads of their own, started at once, and each records
        // what it saw on its thread: the test process's URLSession and cooperative threads are shared with every
        // parallel test, and under load a child task waited over 30 s to send its request.
        let port = proxy.port
        let slowEnded = Flag()
        let slow = ThreadRun {
            let response = try LoopbackClient.request(port: port, "GET", "/slow", timeoutSeconds: 120)
            slowEnded.raise()
            return response
        }
        // The upstream journals the forwarded request when it arrives, long before its answer.
        try #require(await eventually { !upstream.requests.isEmpty })
        try #require(upstream.requests.count == 1)
        let (quick, slowHadEnded) = try await ThreadRun {
            let response = try LoopbackClient.request(port: port, "GET", "/quick")
            return (response, slowEnded.isRaised)
        }.value
        #expect(String(decoding: quick.body, as: UTF8.self) == "quick")
        #expect(!slowHadEnded, "the forwarded request ended before the quick one was answered")

        upstream.stop()
        let ended = try await slow.value
        let said = String(decoding: ended.body, as: UTF8.self)
        #expect(ended.status == 502, "the upstream closed without answering: \(said)")
    }

    @Test("With a proxy target, unmatched requests are forwarded and stubs still win")
    func proxyAll() async throws {
        let upstream = try Self.server()
        defer { upstream.stop() }
        upstream.stub(.get("/users/octocat"), .text(#"{"login":"octocat"}"#).header("Content-Type", "application/json"))
        upstream.stub(.get("/health"), .text("upstream health"))
        let proxy = try Self.server { $0.proxy.target = upstream.baseURL }
        defer { proxy.stop() }
        proxy.stub(.get("/health"), .text("local health"))

        #expect(try await HTTP.get(proxy, "/health").text == "local health")
        let forwarded = try await HTTP.get(proxy, "/users/octocat")
        #expect(forwarded.status == 200)
        #expect(forwarded.text == #"{"login":"octocat"}"#)
        #expect(forwarded.header("Content-Type") == "application/json")
        let missing = try await HTTP.get(proxy, "/nobody")
        #expect(missing.status == 404)
        #expect(upstream.requests.map(\.request.target) == ["/users/octocat", "/nobody"])
        #expect(proxy.requests.map(\.responseStatus) == [200, 200, 404])
    }

    @Test("An upstream body beyond maxResponseBytes gives a 502 saying so")
    func bodyTooLarge() async throws {
        let upstream = try Self.server()
        defer { upstream.stop() }
        upstream.stub(.get("/big"), .data([UInt8](repeating: 0x61, count: 300_000)))
        let proxy = try Self.server { $0.proxy.maxResponseBytes = 100_000 }
        defer { proxy.stop() }
        proxy.stub(.get("/big"), .proxy(to: upstream.baseURL))

        let fetched = try await HTTP.get(proxy, "/big")

        #expect(fetched.status == 502)
        #expect(fetched.text.contains("larger than 100000 bytes"))
    }
}
