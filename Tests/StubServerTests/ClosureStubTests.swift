import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// Swift closure stubs: they see the whole request, run off the event loop (a blocking one holds up
/// no one else), and a thrown error answers 500 and is journaled.
@Suite("Closure stubs")
struct ClosureStubTests {
    struct Follow: Decodable { var notify: Bool }

    @Test("A closure sees method, path parameters, query, headers, cookies and body")
    func seesRequest() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get(pathTemplate: "/users/{name}")) { request in
                .json(["login": .string(request.pathParameters["name"] ?? "")])
            }
            server.stub(.post(pathTemplate: "/users/{name}/follow")) { request in
                let follow = try request.decode(Follow.self)
                let json = try request.json()
                return .json(
                    [
                        "method": .string(request.method.rawValue), "path": .string(request.path),
                        "user": .string(request.pathParameters["name"] ?? ""),
                        "page": .string(request.query("page") ?? ""),
                        "tags": .array((request.query["tag"] ?? []).map(JSONValue.string)),
                        "agent": .string(request.header("x-agent") ?? ""),
                        "session": .string(request.cookies["session"] ?? ""),
                        "notify": .bool(follow.notify), "raw": .string(request.bodyText), "echo": json
                    ], status: 201)
            }
            #expect(try await HTTP.get(server, "/users/jane%20doe").text == #"{"login":"jane doe"}"#)
            let body = Data(#"{"notify":true}"#.utf8)
            let response = try await HTTP.send(
                server, "POST", "/users/octocat/follow?page=2&tag=a&tag=b",
                headers: ["X-Agent": "tests", "Cookie": "theme=dark; session=abc"], body: body)
            #expect(response.status == 201)
            let json = try response.json()
            #expect(json["method"] as? String == "POST")
            #expect(json["path"] as? String == "/users/octocat/follow")
            #expect(json["user"] as? String == "octocat")
            #expect(json["page"] as? String == "2")
            #expect(json["tags"] as? [String] == ["a", "b"])
            #expect(json["agent"] as? String == "tests")
            #expect(json["session"] as? String == "abc")
            #expect(json["notify"] as? Bool == true)
            #expect(json["raw"] as? String == #"{"notify":true}"#)
            #expect((json["echo"] as? [String: Any])?["notify"] as? Bool == true)
            #expect(response.header("Matched-Stub-Id") != nil)
        }
    }

    @Test("An async closure answers too")
    func asyncClosure() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/async")) { request async throws -> ResponseDefinition in
                try await Task.sleep(for: .milliseconds(10))  // the input: a closure that suspends before answering
                return .text("async \(request.path)")
            }
            // The task runs on Swift's global executor, which other tests of this process may keep busy with
            // blocking work for a while: a raw client with a generous timeout, on a thread of its own.
            let port = server.port
            let received = try await offPool {
                let client = try TimedClient(port: port, timeoutSeconds: 120)
                try client.sendGet("/async")
                return client.readToEnd()
            }
            #expect(received.body == Array("async /async".utf8))
        }
    }

    @Test("A blocking closure does not stall other connections")
    func blockingDoesNotStall() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            server.stub(.get("/blocking")) { _ in
                entered.signal()
                // Blocks its worker thread until the fast request has been answered (or 120 s pass: the
                // bound only keeps a broken run from hanging; a loaded machine may take seconds for /hello).
                _ = release.wait(timeout: .now() + 120)
                return .text("blocked")
            }
            server.stub(.get("/hello"), .text("hello"))
            // A socket of its own from a thread of its own, started at once (under load a child task waited over 30 s
            // to send its request); the thread records whether /hello had been answered when /blocking was.
            let port = server.port
            let helloAnswered = Flag()
            let blocked = ThreadRun {
                let response = try LoopbackClient.request(port: port, "GET", "/blocking", timeoutSeconds: 180)
                return (String(decoding: response.body, as: UTF8.self), helloAnswered.isRaised)
            }
            // The closure is running (and blocking) before /hello is sent (waited for up to 60 s, off the pool).
            try #require(await offPool { entered.wait(timeout: .now() + 60) == .success })
            #expect(try await HTTP.get(server, "/hello").text == "hello")
            helloAnswered.raise()
            release.signal()
            let (text, helloFirst) = try await blocked.value
            #expect(text == "blocked")
            #expect(helloFirst, "/hello was answered while the closure of /blocking blocked")
        }
    }

    struct Broken: Error, CustomStringConvertible {
        var description: String { "the backend fixture is missing" }
    }

    @Test("A thrown error answers 500 with its description and is journaled as 500")
    func throwing() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/broken"), name: "broken fixture") { _ in throw Broken() }
            let response = try await HTTP.get(server, "/broken")
            #expect(response.status == 500)
            #expect(response.text.contains("the backend fixture is missing"))
            #expect(response.text.contains("broken fixture"))
            let entry = try #require(server.requests.last)
            #expect(entry.responseStatus == 500)
            #expect(entry.matchedStub?.name == "broken fixture")
        }
    }

    @Test("A closure's response keeps delays and faults")
    func closureFeatures() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/reset")) { _ in .fault(.connectionReset) }
            let result = try await Curl.exitCode(server.baseURL.absoluteString + "/reset")
            #expect(result.code == 56)
        }
    }
}
