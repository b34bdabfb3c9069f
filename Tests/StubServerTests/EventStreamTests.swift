import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// Streamed responses on real sockets: server-sent events and lines from stub JSON and the DSL, flushed
/// one by one; `Last-Event-ID`; the three ends; pushing into open streams from a test.
@Suite("Event streams")
struct EventStreamTests {
    static func server() throws -> StubServer { try startQuietServer() }

    /// The issue's stub file, added through the admin API as a file's JSON.
    static let issueStub = #"""
        {"request": {"method": "GET", "urlPath": "/events"},
         "response": {"status": 200, "headers": {"Content-Type": "text/event-stream"}},
         "metadata": {"stubserver": {"events": [{"data": "one", "delayMilliseconds": 50},
                                                 {"event": "done", "id": "2", "data": "two"}]}}}
        """#

    @Test("The stub file's events reach curl as text/event-stream, in order, and the stream ends")
    func issueExampleWithCurl() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            #expect(
                try await HTTP.send(server, "POST", "/__admin/mappings", body: Data(Self.issueStub.utf8)).status == 201)
            let answer = try await offPool { try Curl.send(["-N"], server.baseURL.appendingPathComponent("events")) }
            #expect(answer.status == 200)
            #expect(answer.headers["Content-Type"] == "text/event-stream")
            #expect(answer.headers["Transfer-Encoding"] == "chunked")
            #expect(answer.text == "data: one\n\nevent: done\nid: 2\ndata: two\n\n")
            #expect(server.requests.count == 1)
        }
    }

    @Test("Each event is flushed when due: the first arrives while the stream stays open")
    func flushedOneByOne() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(
                .get("/live"),
                .events([ServerSentEvent(data: "first"), ServerSentEvent(data: "later", after: .seconds(600))]))
            let port = server.port
            try await offPool {
                let client = try RawClient(port: port)
                try client.send("GET /live HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
                #expect(try client.read(until: "data: first\n\n"))
                #expect(!String(decoding: client.unread, as: UTF8.self).contains("later"))
            }
        }
    }

    @Test("A client reconnecting with Last-Event-ID gets the events after that id; an unknown id gets all")
    func lastEventID() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(
                .get("/feed"),
                .events((1...4).map { ServerSentEvent(data: "e\($0)", id: "\($0)") }))
            let url = server.baseURL.appendingPathComponent("feed")
            let resumed = try await offPool { try Curl.send(["-H", "Last-Event-ID: 2"], url) }
            #expect(resumed.text == "id: 3\ndata: e3\n\nid: 4\ndata: e4\n\n")
            let unknown = try await offPool { try Curl.send(["-H", "Last-Event-ID: 99"], url) }
            #expect(unknown.text.hasPrefix("id: 1\n"))
        }
    }

    @Test("A fault end cuts the stream: curl reports a transfer closed with data outstanding")
    func faultEnd() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(.get("/broken"), .events([ServerSentEvent(data: "partial")], end: .fault))
            let (code, stderr) = try await Curl.exitCode(server.baseURL.appendingPathComponent("broken").absoluteString)
            #expect(code == 18, "\(stderr)")  // CURLE_PARTIAL_FILE
        }
    }

    @Test("A test pushes events into the open streams a pattern matches, then finishes them")
    func pushAndFinish() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(.get("/scores"), .events([ServerSentEvent(data: "0-0", id: "0")], end: .open))
            server.stub(.get("/other"), .events([ServerSentEvent(data: "x")], end: .open))
            let port = server.port
            let scores = try RawClient(port: port)
            let other = try RawClient(port: port)
            try scores.send("GET /scores HTTP/1.1\r\nHost: x\r\n\r\n")
            try other.send("GET /other HTTP/1.1\r\nHost: x\r\n\r\n")
            let open = try await server.waitForStreams(matching: .get("/scores"))
            #expect(open.count == 1)
            #expect(try await server.waitForStreams(matching: .get("/other")).count == 1)
            open.send(ServerSentEvent(data: "1-0", event: "goal", id: "1"))
            open.send(StreamedLine("not an event stream: ignored"))
            open.finish()
            let response = try await offPool { try scores.readResponse() }
            #expect(response.text == "id: 0\ndata: 0-0\n\nevent: goal\nid: 1\ndata: 1-0\n\n")
            #expect(await eventually { server.streams(matching: .get("/scores")).isEmpty })
            #expect(server.streams(matching: .get("/other")).count == 1)
        }
    }

    @Test("A client that leaves an open stream is forgotten at once: the list does not grow with traffic")
    func clientLeaves() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(.get("/open"), .events([ServerSentEvent(comment: "hello")], end: .open))
            let port = server.port
            for round in 1...20 {
                do {
                    let client = try RawClient(port: port)
                    try client.send("GET /open HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(try await offPool { try client.read(until: ": hello\n\n") })
                    #expect(try await server.waitForStreams(matching: .get("/open")).count == 1, "round \(round)")
                }  // the client closes its socket
                #expect(await eventually { server.streams(matching: .get("/open")).isEmpty }, "round \(round)")
            }
        }
    }

    @Test("Lines from the DSL: application/x-ndjson, one JSON value or text per line")
    func lines() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(
                .post("/chat"),
                .lines([
                    .json(["token": "Hel"]), .json(["token": "lo"], after: .milliseconds(10)), StreamedLine("[DONE]")
                ]))
            let answer = try await HTTP.send(server, "POST", "/chat", body: Data("{}".utf8))
            #expect(answer.headers["Content-Type"] == "application/x-ndjson")
            #expect(answer.text == "{\"token\":\"Hel\"}\n{\"token\":\"lo\"}\n[DONE]\n")
        }
    }

    @Test("A stub's own Content-Type and delay apply; HEAD gets the head alone")
    func headersDelayAndHead() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(
                .any("/typed"),
                ResponseDefinition(status: 201, headers: ["Content-Type": "text/plain"], fixedDelayMilliseconds: 20)
                    .streaming(ResponseStream(.lines([StreamedLine("a")]))))
            let answer = try await HTTP.get(server, "/typed")
            #expect(answer.status == 201)
            #expect(answer.headers["Content-Type"] == "text/plain")
            #expect(answer.text == "a\n")
            let head = try await HTTP.send(server, "HEAD", "/typed")
            #expect(head.status == 201 && head.body.isEmpty)
        }
    }
}

extension EventStreamTests {
    @Test("Over the admin API: list open streams, send events and lines, finish and abort; bad calls name the field")
    func adminAPI() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(.get("/scores"), .events([ServerSentEvent(comment: "hi")], end: .open))
            server.stub(.get("/tokens"), .lines([StreamedLine("start")], end: .open))
            let port = server.port
            let scores = try RawClient(port: port)
            let tokens = try RawClient(port: port)
            try scores.send("GET /scores HTTP/1.1\r\nHost: x\r\n\r\n")
            try tokens.send("GET /tokens HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await server.waitForStreams(matching: RequestPattern(), count: 2).count == 2)
            let client = StubServerClient(baseURL: server.baseURL)
            #expect(try await client.openStreamCount() == 2)
            #expect(
                try await client.send([ServerSentEvent(data: "1-0", id: "1")], toStreamsMatching: .get("/scores")) == 1)
            #expect(try await client.send([.json(["token": "x"])], toStreamsMatching: RequestPattern()) == 1)
            #expect(try await offPool { try tokens.read(until: "{\"token\":\"x\"}\n") })
            #expect(try await client.finishStreams(matching: .get("/scores")) == 1)
            #expect(try await offPool { try scores.readResponse() }.text == ": hi\n\nid: 1\ndata: 1-0\n\n")
            #expect(try await client.abortStreams(matching: .get("/tokens")) == 1)
            #expect(await offPool { tokens.waitForClose() })
            #expect(await eventually { (try? await client.openStreamCount()) == 0 })

            let unknown = try await HTTP.send(
                server, "POST", "/__admin/stubserver/streams/send", body: Data(#"{"evnts": []}"#.utf8))
            #expect(unknown.status == 422)
            #expect(unknown.text.contains("unknown field 'evnts'"), "\(unknown.text)")
            let badEvent = try await HTTP.send(
                server, "POST", "/__admin/stubserver/streams/send", body: Data(#"{"events": [{"dta": "x"}]}"#.utf8))
            #expect(badEvent.status == 422)
            #expect(badEvent.text.contains("events[0].dta"), "\(badEvent.text)")
        }
    }
}

extension EventStreamTests {
    @Test("A closure's AsyncSequence of events: sent as made, its end finishes the stream; path parameters reach it")
    func producedEvents() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(.get(pathTemplate: "/matches/{id}/score")) { request in
                AsyncStream { continuation in
                    let id = request.pathParameters["id"] ?? "?"
                    continuation.yield(ServerSentEvent(data: "match \(id): 0-0", id: "0"))
                    continuation.yield(ServerSentEvent(data: "1-0", event: "goal", id: "1"))
                    continuation.finish()
                }
            }
            // The producer runs on Swift's cooperative pool, which other tests of this process may keep busy
            // for many seconds: a generous read timeout, not URLSession's.
            let port = server.port
            let answer = try await offPool {
                try RawClient(port: port, timeout: .seconds(120)).roundTrip(
                    "GET /matches/7/score HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            #expect(answer.header("Content-Type") == "text/event-stream")
            #expect(answer.text == "id: 0\ndata: match 7: 0-0\n\nevent: goal\nid: 1\ndata: 1-0\n\n")
        }
    }

    @Test("A producer that never ends is cancelled when its client leaves; one that throws cuts the stream")
    func producerCancelledAndFailing() async throws {
        let server = try Self.server()
        let cancelled = LockedFlag()
        try await shuttingDown(server) {
            server.stub(.get("/forever")) { _ in
                AsyncStream<ServerSentEvent> { continuation in
                    continuation.yield(ServerSentEvent(comment: "open"))
                    continuation.onTermination = { _ in cancelled.set() }
                }
            }
            server.stub(.get("/failing")) { _ in
                AsyncThrowingStream<ServerSentEvent, any Error> { continuation in
                    continuation.yield(ServerSentEvent(data: "partial"))
                    continuation.finish(throwing: CancellationError())
                }
            }
            let port = server.port
            do {
                let client = try RawClient(port: port, timeout: .seconds(120))  // see producedEvents
                try client.send("GET /forever HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await offPool { try client.read(until: ": open\n\n") })
            }  // the client leaves
            #expect(await eventually { cancelled.isSet })
            // A cut chunked body: the client reads the connection's end before the last chunk.
            let cut = await offPool {
                Result {
                    try RawClient(port: port, timeout: .seconds(120)).roundTrip(
                        "GET /failing HTTP/1.1\r\nHost: x\r\n\r\n")
                }
            }
            switch cut {
            case .success(let response): Issue.record("a cut stream read as complete: \(response.text)")
            case .failure(let error): #expect("\(error)".contains("closed"), "\(error)")
            }
        }
    }

    /// A flag set from any thread.
    final class LockedFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }
}

extension EventStreamTests {
    @Test("A templated stub renders each event's data, id and event, and each line, for the request")
    func templatedEvents() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            let stub = #"""
                {"request": {"method": "GET", "urlPathPattern": "/greet/.*"},
                 "response": {"status": 200, "transformers": ["response-template"]},
                 "metadata": {"stubserver": {"events": [
                   {"data": "hello {{request.path.[1]}}\nbye", "id": "{{request.query.n}}", "event": "{{request.method}}"},
                   {"data": "{\"n\": {{request.query.n}}}"}]}}}
                """#
            #expect(try await HTTP.send(server, "POST", "/__admin/mappings", body: Data(stub.utf8)).status == 201)
            let answer = try await HTTP.get(server, "/greet/bob?n=5")
            #expect(answer.headers["Content-Type"] == "text/event-stream")
            #expect(answer.text == "event: GET\nid: 5\ndata: hello bob\ndata: bye\n\ndata: {\"n\": 5}\n\n")
            // The id the client got back, templated: resume after it.
            let resumed = try await HTTP.get(server, "/greet/ann?n=5", headers: ["Last-Event-ID": "5"])
            #expect(resumed.text == "data: {\"n\": 5}\n\n")

            server.stub(.get("/lines"), ResponseDefinition.lines([StreamedLine("{{request.query.q}}")]).templated())
            #expect(try await HTTP.get(server, "/lines?q=swift").text == "swift\n")

            let broken = #"""
                {"request": {"url": "/broken"}, "response": {"transformers": ["response-template"]},
                 "metadata": {"stubserver": {"events": [{"data": "{{#if}}"}]}}}
                """#
            let refused = try await HTTP.send(server, "POST", "/__admin/mappings", body: Data(broken.utf8))
            #expect(refused.status == 422)
            #expect(refused.text.contains("metadata.stubserver.events[0].data"), "\(refused.text)")
        }
    }
}
