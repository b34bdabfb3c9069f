import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// `clientIp`, `host`, `port` and `formParameters` over real sockets: what URLSession and curl send to a
/// server listening on 127.0.0.1.
@Suite("Request origin and form parameters over the wire")
struct RequestOriginServerTests {
    @Test("clientIp sees 127.0.0.1; host and port are what URLSession put in Host")
    func urlSession() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            let port = server.port
            try server.stub(
                mappingJSON:
                    #"{"request": {"urlPath": "/origin", "scheme": "http", "clientIp": {"equalTo": "127.0.0.1"}, "host": {"equalTo": "127.0.0.1"}, "port": \#(port)}, "response": {"body": "here"}}"#
            )
            try server.stub(
                mappingJSON:
                    #"{"request": {"urlPath": "/other", "port": \#(port == 65535 ? 1 : port + 1)}, "response": {"body": "no"}}"#
            )
            try server.stub(
                mappingJSON:
                    #"{"request": {"urlPath": "/forwarded", "clientIp": {"equalTo": "203.0.113.7"}}, "response": {"body": "via proxy"}}"#
            )
            #expect(try await HTTP.get(server, "/origin").text == "here")
            #expect(try await HTTP.get(server, "/other").status == 404)
            #expect(try await HTTP.get(server, "/forwarded").status == 404)
            let forwarded = try await HTTP.get(server, "/forwarded", headers: ["X-Forwarded-For": "203.0.113.7"])
            #expect(forwarded.text == "via proxy")
        }
    }

    @Test("formParameters match a URLSession form post")
    func formPost() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(
                .post("/login").withFormParameter("user", "octo cat").withFormParameter(
                    "tag", includes: [.equalTo("a&b")]),
                .text("welcome"))
            let body = Data("user=octo+cat&tag=x&tag=a%26b".utf8)
            let headers = ["Content-Type": "application/x-www-form-urlencoded"]
            #expect(try await HTTP.send(server, "POST", "/login", headers: headers, body: body).text == "welcome")
            let plain = try await HTTP.send(
                server, "POST", "/login", headers: ["Content-Type": "text/plain"], body: body)
            #expect(plain.status == 404)
        }
    }

    @Test(
        "curl: host localhost and the port it dialled; the Host it is told to send wins", .enabled(if: Curl.isAvailable)
    )
    func curl() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            let port = server.port
            try server.stub(
                mappingJSON:
                    #"{"request": {"urlPath": "/local", "host": {"equalTo": "localhost"}, "port": \#(port), "clientIp": {"equalTo": "127.0.0.1"}}, "response": {"body": "local"}}"#
            )
            try server.stub(
                mappingJSON:
                    #"{"request": {"urlPath": "/named", "host": {"equalTo": "api.example.com"}, "port": 80}, "response": {"body": "named"}}"#
            )
            let local = try #require(URL(string: "http://127.0.0.1:\(port)/local"))
            let named = try #require(URL(string: "http://127.0.0.1:\(port)/named"))
            let fetched = try await offPool {
                (
                    try Curl.send(["-H", "Host: localhost:\(port)"], local),
                    try Curl.send(["-H", "Host: api.example.com"], named), try Curl.send([], local)
                )
            }
            #expect(fetched.0.text == "local")
            #expect(fetched.1.text == "named")
            #expect(fetched.2.status == 404)
        }
    }
}
