import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// A JSONPath reaches the server in a mapping or request pattern posted to the admin API (parsed on a
/// worker thread), and in a template that builds it from the request (parsed on an event loop). Under
/// `.ci/run`'s Darwin emulation those threads have 512 KiB stacks, as a Mac's. Each time, a path nested
/// past the parser's limit, or longer than it, is refused with its reason, and the server keeps serving.
@Suite("Deeply nested JSONPath over the wire")
struct DeepJSONPathRequestTests {
    /// The attack's expression: about 50 KB of `!` and `(` in a filter.
    static let attack =
        "$[?(" + String(repeating: "!(", count: 25_000) + "@.a" + String(repeating: ")", count: 25_000) + ")]"
    /// Deep, but short enough that the depth limit is what refuses it.
    static let deep =
        "$[?(" + String(repeating: "!(", count: 2_000) + "@.a" + String(repeating: ")", count: 2_000) + ")]"
    static let depthReason = "filters nested deeper than 16"
    static let lengthReason = "longer than 16384 bytes"

    static func pattern(_ expression: String) -> String {
        #"{"method": "POST", "url": "/json", "bodyPatterns": [{"matchesJsonPath": "\#(expression)"}]}"#
    }

    static func error(_ answer: String) -> [String: Any]? {
        guard let body = answer.components(separatedBy: "\r\n\r\n").dropFirst().first,
            let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        else { return nil }
        return (json["errors"] as? [[String: Any]])?.first
    }

    @Test(
        "Mappings, request counts and finds, near misses: 422 naming the field and the limit; the server keeps serving")
    func adminAPI() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            server.stub(.get("/alive"), .text("alive"))
            let port = server.port
            let calls: [(path: String, body: (String) -> String, pointer: String)] = [
                (
                    "/__admin/mappings", { #"{"request": \#(Self.pattern($0)), "response": {"status": 200}}"# },
                    "/request/bodyPatterns/0/matchesJsonPath"
                ),
                ("/__admin/requests/count", Self.pattern, "/bodyPatterns/0/matchesJsonPath"),
                ("/__admin/requests/find", Self.pattern, "/bodyPatterns/0/matchesJsonPath"),
                ("/__admin/near-misses/request-pattern", Self.pattern, "/bodyPatterns/0/matchesJsonPath")
            ]
            for call in calls {
                for (expression, reason) in [(Self.attack, Self.lengthReason), (Self.deep, Self.depthReason)] {
                    let body = call.body(expression), path = call.path
                    let answer = try await offPool { try DeepJSONRequestTests.post(port, path, body) }
                    #expect(answer.hasPrefix("HTTP/1.1 422"), "\(call.path): \(answer.prefix(200))")
                    let error = Self.error(answer)
                    #expect(
                        (error?["detail"] as? String)?.contains(reason) == true, "\(call.path): \(answer.suffix(400))")
                    #expect((error?["source"] as? [String: Any])?["pointer"] as? String == call.pointer, "\(call.path)")
                }
                #expect(try await HTTP.get(server, "/alive").text == "alive")
            }
            #expect(server.mappings.count == 1)
        }
    }

    @Test("A templated jsonPath built from a request header: past the limits, 500 naming the stub; within, it selects")
    func templatedFromTheRequest() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            try server.stub(
                mappingJSON: #"""
                    {"name": "path-from-header", "request": {"method": "POST", "url": "/pick"},
                     "response": {"status": 200, "body": "picked {{jsonPath request.body request.headers.X-Path}}",
                                  "transformers": ["response-template"]}}
                    """#)
            let port = server.port
            func pick(_ path: String) async throws -> String {
                let body = #"{"a": "x", "list": [{"a": 1}]}"#
                let request =
                    "POST /pick HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Path: \(path)\r\nContent-Length: \(body.utf8.count)\r\n"
                    + "Connection: close\r\n\r\n\(body)"
                return try await offPool {
                    String(
                        decoding: try RawSocket.exchange(port: port, Array(request.utf8), timeoutSeconds: 60),
                        as: UTF8.self)
                }
            }
            // The attack's header was 20 KB.
            let long =
                "$.list[?(" + String(repeating: "!(", count: 10_000) + "@.a" + String(repeating: ")", count: 10_000)
                + ")]"
            for (path, reason) in [(long, Self.lengthReason), (Self.deep, Self.depthReason)] {
                let answer = try await pick(path)
                #expect(answer.hasPrefix("HTTP/1.1 500"), "\(answer.prefix(200))")
                #expect(
                    answer.contains("stubserver: stub 'path-from-header' (")
                        && answer.contains("): jsonPath: invalid JSONPath"), "\(answer.suffix(300))")
                #expect(answer.contains(reason), "\(answer.suffix(300))")
            }
            #expect(try await pick("$.a").hasSuffix("picked x"))
            let atLimit =
                "$.list[?(" + String(repeating: "(", count: 15) + "@.a" + String(repeating: ")", count: 15) + ")].a"
            #expect(try await pick(atLimit).hasSuffix("picked [1]"))
            #expect(try await pick("$[").hasSuffix("picked "), "a path that does not parse selects nothing, as before")
        }
    }

    @Test(
        "Filters that rescan the document at every level: no match (matcher), 500 (template); the server keeps serving")
    func evaluationBudget() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            // 16 filters, each scanning the whole document again: about (nodes)^16 steps without a budget.
            let bomb = "$" + String(repeating: "[?($..", count: 16) + "a" + String(repeating: ")]", count: 16)
            try server.stub(
                mappingJSON:
                    #"{"request": {"method": "POST", "url": "/bomb", "bodyPatterns": [{"matchesJsonPath": "\#(bomb)"}]}, "response": {"status": 200}}"#
            )
            try server.stub(
                mappingJSON: #"""
                    {"name": "path-from-header", "request": {"method": "POST", "url": "/pick"},
                     "response": {"status": 200, "body": "{{jsonPath request.body request.headers.X-Path}}", "transformers": ["response-template"]}}
                    """#)
            server.stub(.get("/alive"), .text("alive"))
            let port = server.port
            let document = #"{"a": [{"a": [{"a": [{"a": [{"a": [{"a": [{"a": [{"a": 1}]}]}]}]}]}]}]}"#
            let matched = try await offPool { try DeepJSONRequestTests.post(port, "/bomb", document) }
            #expect(matched.hasPrefix("HTTP/1.1 404"), "\(matched.prefix(200))")
            let request =
                "POST /pick HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Path: \(bomb)\r\nContent-Length: \(document.utf8.count)\r\n"
                + "Connection: close\r\n\r\n\(document)"
            let picked = try await offPool {
                String(
                    decoding: try RawSocket.exchange(port: port, Array(request.utf8), timeoutSeconds: 60), as: UTF8.self
                )
            }
            #expect(picked.hasPrefix("HTTP/1.1 500"), "\(picked.prefix(200))")
            #expect(
                picked.contains("stubserver: stub 'path-from-header' (") && picked.contains("): jsonPath: "),
                "\(picked.suffix(300))")
            #expect(picked.contains("gave up after 200568 steps"), "\(picked.suffix(300))")
            #expect(try await HTTP.get(server, "/alive").text == "alive")
        }
    }
}
