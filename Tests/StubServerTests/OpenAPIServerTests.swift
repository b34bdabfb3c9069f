import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// A server answering from an OpenAPI document and checking requests against it, over real sockets.
@Suite("OpenAPI documents served")
struct OpenAPIServerTests {
    static let pets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/OpenAPI/pets.json")

    /// Lines a server logged.
    final class Lines: @unchecked Sendable {  // every access holds the lock
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    static func server(_ mode: OpenAPIValidation = .reject, lines: Lines = Lines()) throws -> StubServer {
        var configuration = StubServer.Configuration()
        configuration.openAPI = [try OpenAPIDocument.load(contentsOf: pets.path)]
        configuration.openAPIValidation = mode
        configuration.log = LogSink(.handler { lines.append($0) })
        let server = try StubServer(configuration: configuration)
        try server.start()
        return server
    }

    @Test("Operations answer their examples, other responses and examples answer to Prefer")
    func answers() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            let list = try await HTTP.get(server, "/pets")
            #expect(list.status == 200 && list.headers["Content-Type"] == "application/json")
            #expect(list.text.contains(#""name":"Rex""#))
            let empty = try await HTTP.get(server, "/pets", headers: ["Prefer": "example=empty"])
            #expect(empty.status == 200 && empty.text == "[]")
            let id = ["X-Request-Id": "6c6d8a34-8b8e-4b4b-9a8c-5b3b1c1c1c1c"]
            let missing = try await HTTP.get(server, "/pets/7", headers: id.merging(["Prefer": "code=404"]) { $1 })
            #expect(missing.status == 404 && missing.headers["Content-Type"] == "application/problem+json")
            #expect(missing.text == #"{"title":"Not found","status":404}"#)
            let shown = try await HTTP.get(server, "/pets/7", headers: id)
            #expect(shown.status == 200 && shown.text.contains(#""kind":"#))
            #expect(server.openAPIFindings.isEmpty)
        }
    }

    @Test("A request that breaks its operation gets a 400 problem naming each violation, and is kept for the helpers")
    func rejects() async throws {
        let lines = Lines()
        let server = try Self.server(lines: lines)
        try await shuttingDown(server) {
            let bad = try await HTTP.send(
                server, "POST", "/pets", headers: ["Content-Type": "application/json"],
                body: Data(#"{"kind": "fish"}"#.utf8))
            #expect(bad.status == 400 && bad.headers["Content-Type"] == "application/problem+json")
            let problem = try JSONParser.parse(Array(bad.body))
            #expect(problem["status"] == .number("400"))
            #expect(problem["operationId"] == .string("createPet"))
            #expect(
                problem["violations"]
                    == .array([
                        .object([
                            ("pointer", .string("/body")), ("message", .string(#"missing required property "name""#))
                        ]),
                        .object([
                            ("pointer", .string("/body/kind")),
                            ("message", .string(#"expected one of ["dog","cat","bird"], found "fish""#))
                        ])
                    ]))
            #expect(server.requests.last?.responseStatus == 400)
            #expect(server.requests.last?.matchedStub == nil)
            let findings = server.openAPIFindings
            #expect(findings.map(\.operationID) == ["createPet"])
            #expect(findings.first?.violations.map(\.pointer) == ["/body", "/body/kind"])
            // Undefined operations are findings too, answered as any unmatched request is.
            let undefined = try await HTTP.get(server, "/toys")
            #expect(undefined.status == 404)
            #expect(server.openAPIFindings.last?.violations.first?.message == #"the document has no path "/toys""#)
            #expect(server.log.flush(timeout: .seconds(30)))
            #expect(lines.all.contains { $0.contains("OpenAPI: POST /pets (operation createPet of") })
            server.reset()
            #expect(server.openAPIFindings.isEmpty)
        }
    }

    @Test("In log mode a request that breaks its operation is logged and answered")
    func logsOnly() async throws {
        let lines = Lines()
        let server = try Self.server(.log, lines: lines)
        try await shuttingDown(server) {
            let answered = try await HTTP.get(server, "/pets?limit=many")
            #expect(answered.status == 200)
            #expect(server.log.flush(timeout: .seconds(30)))
            #expect(lines.all.contains { $0.contains(#"/query/limit: expected integer, found string (got "many")"#) })
            #expect(server.openAPIFindings.count == 1)
        }
    }

    @Test("Stubs from Swift answer before the document's, and stub(openAPI:) serves a document until reset")
    func precedence() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) {
            let handles = try server.stub(openAPI: Self.pets)
            #expect(handles.count == 8)
            server.stub(.get("/pets"), .json(["mine"]))
            #expect(try await HTTP.get(server, "/pets").text == #"["mine"]"#)
            #expect(try await HTTP.get(server, "/pets?limit=x").status == 400)
            server.reset()
            #expect(try await HTTP.get(server, "/pets?limit=x").status == 404)
        }
    }
}
