import Foundation
import StubHTTP
import StubModel
import StubOpenAPI
import StubTestSupport
import Testing

/// Loading and checking documents: operations, `$ref`s, and the errors that name their place.
@Suite("OpenAPI documents")
struct OpenAPIDocumentTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/OpenAPI")
    static let pets = fixtures.appendingPathComponent("pets.json").path

    static func load() throws -> OpenAPIDocument { try OpenAPIDocument.load(contentsOf: pets) }

    @Test("Every operation is read in document order, with parameters from the path item and the operation")
    func operations() throws {
        let document = try Self.load()
        #expect(document.version == .v30)
        #expect(document.title == "Pets")
        #expect(document.operations.map(\.id) == ["listPets", "createPet", "myPets", "showPet"])
        let show = try #require(document.operations.last)
        #expect(show.method == "GET" && show.path == "/pets/{petId}")
        #expect(show.parameters.map(\.name) == ["petId", "X-Request-Id"])
        #expect(show.responses.map(\.status) == ["200", "404"])
        #expect(show.responses.last?.content.first?.type == "application/problem+json")
    }

    @Test("A literal path wins over a template, and path parameters are decoded")
    func routing() throws {
        let document = try Self.load()
        #expect(document.operation(method: "GET", path: "/pets/mine")?.operation.id == "myPets")
        let shown = try #require(document.operation(method: "GET", path: "/pets/4%32"))
        #expect(shown.operation.id == "showPet" && shown.pathParameters == ["petId": "42"])
        #expect(document.operation(method: "DELETE", path: "/pets/1") == nil)
        #expect(document.operation(method: "GET", path: "/pets/1/toys") == nil)
    }

    @Test(
        "A document that cannot be used is an error naming the file and the place",
        arguments: [
            (##"{"info": {}}"##, "#/openapi: missing the `openapi` version (3.0.x or 3.1.x)"),
            (##"{"swagger": "2.0"}"##, "#/swagger: Swagger 2.0 is not supported"),
            (##"{"openapi": "4.0.0"}"##, "#/openapi: OpenAPI 4.0.0 is not supported"),
            (
                ##"{"openapi": "3.0.0", "paths": {"/a/{id}": {"get": {"responses": {}}}}}"##,
                "#/paths/~1a~1{id}/get: the path has {id}, but no path parameter \"id\""
            ),
            (
                ##"{"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": {"200": {"$ref": "#/components/responses/Nope"}}}}}}"##,
                "#/paths/~1a/get/responses/200/$ref: $ref \"#/components/responses/Nope\": no such place in the document"
            ),
            (
                ##"{"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/nowhere"}}}}}}}}}"##,
                "#/paths/~1a/get/responses/200/content/application~1json/schema/$ref: only references"
            ),
            (
                ##"{"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": {"200": {"$ref": "#/x"}}}}}, "x": {"$ref": "#/x"}}"##,
                "$refs lead through more than 32 hops"
            ),
            (
                ##"{"openapi": "3.0.0", "paths": {"/a": {"get": {"responses": {"299x": {}}}}}}"##,
                "a response key is a status"
            ),
            (##"{"openapi": "3.0.0", "paths": {"a": {}}}"##, "#/paths/a: a path must start with \"/\""),
            (##"{"openapi": "3.0.0", "paths": {"##, "line 1, column 32")
        ])
    func errors(text: String, expected: String) {
        #expect {
            try OpenAPIDocument(parsing: text, file: "api.json")
        } throws: { error in
            let description = String(describing: error)
            return description.hasPrefix("api.json") && description.contains(expected)
        }
    }

    @Test("$refs to files beside the document are put in place; a missing file and a cycle are errors")
    func externalReferences() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ name: String, _ text: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write(
            "common.json",
            ##"{"Error": {"type": "object", "required": ["code"], "properties": {"code": {"$ref": "#/Code"}}}, "Code": {"type": "integer"}}"##
        )
        try write(
            "api.json",
            ##"{"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": {"400": {"content": {"application/json": {"schema": {"$ref": "common.json#/Error"}}}}}}}}}"##
        )
        let document = try OpenAPIDocument.load(contentsOf: folder.appendingPathComponent("api.json").path)
        let schema = document.root["paths"]?["/a"]?["get"]?["responses"]?["400"]?["content"]?["application/json"]?[
            "schema"]
        #expect(schema?["properties"]?["code"] == .object([("type", .string("integer"))]))

        try write(
            "loop.json",
            ##"{"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": {"200": {"$ref": "b.json#/R"}}}}}}"##)
        try write("b.json", ##"{"R": {"content": {"application/json": {"schema": {"$ref": "c.json#/S"}}}}}"##)
        try write("c.json", ##"{"S": {"items": {"$ref": "b.json#/R"}}}"##)
        #expect {
            try OpenAPIDocument.load(contentsOf: folder.appendingPathComponent("loop.json").path)
        } throws: { error in
            String(describing: error).contains("a cycle of $refs across files")
        }
        try write(
            "missing.json",
            ##"{"openapi": "3.1.0", "paths": {"/a": {"get": {"responses": {"200": {"$ref": "gone.json#/R"}}}}}}"##)
        #expect {
            try OpenAPIDocument.load(contentsOf: folder.appendingPathComponent("missing.json").path)
        } throws: { error in
            let text = String(describing: error)
            return text.contains("gone.json") && text.contains("cannot read the file")
        }
    }
}
