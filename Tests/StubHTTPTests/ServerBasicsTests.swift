import Foundation
import StubTestSupport
import XCTest

@testable import StubHTTP

/// Black-box tests over real loopback sockets: the basics of HTTP/1.1 and 1.0.
final class ServerBasicsTests: XCTestCase {
    func testPortZeroReportsTheRealPort() throws {
        let server = try startServer()
        defer { server.stop() }
        XCTAssertGreaterThan(server.port, 0)
        XCTAssertEqual(server.host, "127.0.0.1")
        let response = try RawClient(port: server.port).roundTrip("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.text, "GET /hello ")
        XCTAssertNotNil(response.header("Date"))
        XCTAssertEqual(response.header("Content-Length"), "11")
    }

    func testServesOnIPv6Loopback() throws {
        let server = try startServer(.init(host: "::1"))
        defer { server.stop() }
        XCTAssertEqual(server.host, "::1")
        let response = try RawClient(host: "::1", port: server.port).roundTrip("GET /six HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(response.text, "GET /six ")
    }

    func testAddressInUseNamesHostAndPort() throws {
        let first = try startServer()
        defer { first.stop() }
        let second = HTTPServer(configuration: .init(port: first.port), handler: echoHandler)
        XCTAssertThrowsError(try second.start()) { error in
            guard let error = error as? ServerError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .addressInUse)
            XCTAssertEqual(error.description, "cannot listen on 127.0.0.1:\(first.port): address already in use")
        }
        second.stop()
    }

    func testInvalidHostNamesTheHost() {
        let server = HTTPServer(configuration: .init(host: "no such host.invalid"), handler: echoHandler)
        XCTAssertThrowsError(try server.start()) { error in
            guard let error = error as? ServerError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .invalidAddress)
            XCTAssertTrue(error.description.contains("no such host.invalid"), error.description)
        }
    }

    func testGetHeadAndPostWithContentLength() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let get = try client.roundTrip("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(get.text, "GET /a ")
        let head = try client.roundTrip("HEAD /a HTTP/1.1\r\nHost: x\r\n\r\n", head: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), "8")  // "HEAD /a " — the GET-like length, no body
        let post = try client.roundTrip("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
        XCTAssertEqual(post.text, "POST /p hello")
        XCTAssertTrue(client.unread.isEmpty, "HEAD must not carry a body")
    }

    func testChunkedUpload() throws {
        let server = try startServer()
        defer { server.stop() }
        let response = try RawClient(port: server.port).roundTrip(
            "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
        XCTAssertEqual(response.text, "POST /c hello world")
    }

    func testExpectContinueIsAnsweredBeforeTheBody() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("PUT /e HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        let interim = try client.readResponse()
        XCTAssertEqual(interim.status, 100)
        try client.send("data")
        let final = try client.readResponse()
        XCTAssertEqual(final.text, "PUT /e data")
    }

    func testHTTP10ClosesByDefaultAndKeepsAliveOnRequest() throws {
        let server = try startServer()
        defer { server.stop() }
        let closing = try RawClient(port: server.port)
        let first = try closing.roundTrip("GET /old HTTP/1.0\r\n\r\n")
        XCTAssertEqual(first.header("Connection"), "close")
        XCTAssertTrue(closing.waitForClose())

        let keeping = try RawClient(port: server.port)
        let a = try keeping.roundTrip("GET /1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(a.header("Connection"), "keep-alive")
        let b = try keeping.roundTrip("GET /2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(b.text, "GET /2 ")
    }

    func testConnectionCloseClosesAfterTheResponse() throws {
        let server = try startServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let response = try client.roundTrip("GET /bye HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertEqual(response.text, "GET /bye ")
        XCTAssertTrue(client.waitForClose())
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        // Answer the odd ones later from another thread, to prove order does not depend on timing.
        let server = try startServer { request, responder in
            let n = Int(request.path.dropFirst()) ?? 0
            if n % 2 == 1 {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
                    responder.respond(.text("r\(n)"))
                }
            } else {
                responder.respond(.text("r\(n)"))
            }
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send((1...5).map { "GET /\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        for n in 1...5 {
            XCTAssertEqual(try client.readResponse().text, "r\(n)")
        }
    }

    func testDelayedResponseDoesNotHoldUpOtherClients() throws {
        let server = try startServer { request, responder in
            if request.path == "/slow" {
                responder.respond(.text("slow"), after: .milliseconds(500))
            } else {
                responder.respond(.text("fast"))
            }
        }
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        try slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        for _ in 0..<5 {
            let fast = try RawClient(port: server.port).roundTrip("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(fast.text, "fast")
        }
        XCTAssertEqual(try slow.readResponse().text, "slow")
    }

    func testStreamingResponseIsChunked() throws {
        let server = try startServer { _, responder in
            let stream = responder.startStreaming(HTTPResponse(headers: ["Content-Type": "text/plain"]))
            DispatchQueue.global().async {
                for part in ["one ", "two ", "three"] { stream.write(Array(part.utf8)) }
                stream.finish()
            }
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let response = try client.roundTrip("GET /s HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(response.header("Transfer-Encoding"), "chunked")
        XCTAssertEqual(response.text, "one two three")
        // The connection stays usable.
        XCTAssertEqual(try client.roundTrip("GET /s HTTP/1.1\r\nHost: x\r\n\r\n").text, "one two three")

        let old = try RawClient(port: server.port)
        let legacy = try old.roundTrip("GET /s HTTP/1.0\r\n\r\n")
        XCTAssertNil(legacy.header("Transfer-Encoding"))
        XCTAssertEqual(legacy.text, "one two three")
    }

    func testPreparedResponseIsServedRepeatedly() throws {
        let prepared = PreparedResponse(
            HTTPResponse(status: .created, headers: ["X-Kind": "prepared"], body: Array("ok".utf8)))
        let server = try startServer { _, responder in responder.respond(prepared) }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for _ in 0..<3 {
            let response = try client.roundTrip("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(response.status, 201)
            XCTAssertEqual(response.header("X-Kind"), "prepared")
            XCTAssertEqual(response.text, "ok")
        }
    }

    func testCurlIsServed() throws {
        let server = try startServer()
        defer { server.stop() }
        let curl = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/curl"),
            [
                "-s", "--max-time", "10", "-X", "POST", "--data-binary", "from curl",
                "http://127.0.0.1:\(server.port)/curl?x=1", "http://127.0.0.1:\(server.port)/again"
            ], timeout: .seconds(20))
        XCTAssertEqual(curl.status, 0)
        XCTAssertEqual(curl.standardOutput, "POST /curl?x=1 from curlPOST /again from curl")
    }

    func testPythonHTTPClientIsServed() throws {
        let server = try startServer()
        defer { server.stop() }
        let script = """
            import http.client
            c = http.client.HTTPConnection("127.0.0.1", \(server.port), timeout=10)
            for i in range(3):
                c.request("POST", "/py/%d" % i, body=b"abc", headers={"Expect": "100-continue"} if i == 1 else {})
                r = c.getresponse()
                print(r.status, r.read().decode())
            c.request("HEAD", "/py")
            r = c.getresponse()
            print(r.status, r.getheader("Content-Length"), r.read())
            """
        let python = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], timeout: .seconds(20))
        XCTAssertEqual(python.status, 0)
        XCTAssertEqual(python.standardOutput, "200 POST /py/0 abc\n200 POST /py/1 abc\n200 POST /py/2 abc\n200 9 b''\n")
    }

    func testPollBackendServesRequests() throws {
        var configuration = HTTPServerConfiguration()
        configuration.selectorBackend = .poll
        configuration.eventLoopCount = 2
        let server = try startServer(configuration)
        defer { server.stop() }
        for n in 0..<4 {
            let client = try RawClient(port: server.port)
            XCTAssertEqual(try client.roundTrip("GET /\(n) HTTP/1.1\r\nHost: x\r\n\r\n").text, "GET /\(n) ")
            XCTAssertEqual(
                try client.roundTrip("POST /\(n) HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\nz").text,
                "POST /\(n) z")
        }
    }
}
