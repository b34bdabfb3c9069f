import StubHTTP
import StubModel
import Testing

@testable import StubKit
@testable import StubTemplating

/// `{{data 'todos' 'count'}}`, `{{data 'todos' 'items'}}` and `{{data 'todos' 'item' id}}`: the server's data
/// store, read through ``TemplateDataSource`` (here a fake one).
@Suite("Response templates: data")
struct TemplateDataHelperTests {
    /// Collections by name; an item's id is its `id` member, as text.
    struct FakeStore: TemplateDataSource {
        var collections: [String: [JSONValue]]

        func templateItems(of name: String) -> [JSONValue]? { collections[name] }

        func templateItem(_ id: String, of name: String) -> JSONValue? {
            collections[name]?.first { item in
                guard case let .object(members) = item, let value = members.first(where: { $0.key == "id" })?.value
                else { return false }
                switch value {
                case let .number(text), let .string(text): return text == id
                case .null, .bool, .array, .object: return false
                }
            }
        }
    }

    static func todo(_ id: Int, _ title: String, done: Bool = false) -> JSONValue {
        .object([("id", .number(String(id))), ("title", .string(title)), ("done", .bool(done))])
    }

    static let store = FakeStore(collections: [
        "todos": [todo(1, "milk"), todo(42, "bread", done: true), todo(7, "eggs")],
        "empty": [],
        "tags": [.object([("id", .string("a1b2")), ("name", .string("home"))])]
    ])

    /// Renders `text` for `GET target` with the fake store (or `data`), the path parameters given.
    static func render(
        _ text: String, target: String = "/todos", pathParameters: [String: String] = [:],
        data: (any TemplateDataSource)? = store, limits: TemplateLimits = TemplateLimits()
    ) throws -> String {
        try Template(text).render(
            for: HTTPRequest(method: .get, target: target), pathParameters: pathParameters, now: 0, limits: limits,
            data: data)
    }

    @Test("count is the number of items of the collection")
    func count() throws {
        #expect(try Self.render("{{data 'todos' 'count'}}|{{data 'empty' 'count'}}") == "3|0")
        #expect(try Self.render("{{#gt (data 'todos' 'count') 2}}many{{else}}few{{/gt}}") == "many")
    }

    @Test("items is the collection as a compact JSON array, in its order")
    func items() throws {
        #expect(
            try Self.render("{{{data 'todos' 'items'}}}")
                == #"[{"id":1,"title":"milk","done":false},{"id":42,"title":"bread","done":true},{"id":7,"title":"eggs","done":false}]"#
        )
        #expect(try Self.render("{{{data 'empty' 'items'}}}") == "[]")
        // `{{…}}` HTML-escapes the quotes, as for any JSON a helper gives.
        #expect(
            try Self.render("{{data 'tags' 'items'}}")
                == "[{&quot;id&quot;:&quot;a1b2&quot;,&quot;name&quot;:&quot;home&quot;}]")
    }

    @Test("items is a value other helpers take: #each, size, jsonPath")
    func itemsAsValue() throws {
        #expect(
            try Self.render(
                "{{#each (data 'todos' 'items') as |todo|}}{{@index}}:{{todo.title}}{{#unless @last}},{{/unless}}{{/each}}"
            )
                == "0:milk,1:bread,2:eggs")
        #expect(try Self.render("{{#each (data 'empty' 'items')}}x{{else}}none{{/each}}") == "none")
        #expect(try Self.render("{{size (data 'todos' 'items')}}") == "3")
        #expect(try Self.render("{{jsonPath (data 'todos' 'items') '$[1].title'}}") == "bread")
        #expect(try Self.render("{{{jsonPath (data 'todos' 'items') '$[?(@.done == true)].id'}}}") == "[42]")
    }

    @Test("item by a literal id, a number, or a path parameter; an unknown id renders empty")
    func item() throws {
        #expect(
            try Self.render("{{{data 'todos' 'item' '42'}}}")
                == "{\n  \"id\" : 42,\n  \"title\" : \"bread\",\n  \"done\" : true\n}")
        #expect(try Self.render("{{#with (data 'todos' 'item' 7)}}{{title}} {{done}}{{/with}}") == "eggs false")
        #expect(
            try Self.render(
                "{{#with (data 'todos' 'item' request.path.id) as |todo|}}{{todo.title}}{{/with}}",
                target: "/todos/42", pathParameters: ["id": "42"]) == "bread")
        #expect(
            try Self.render(
                "{{#with (data 'tags' 'item' request.path.id)}}{{name}}{{/with}}", target: "/tags/a1b2",
                pathParameters: ["id": "a1b2"]) == "home")
        #expect(try Self.render("[{{data 'todos' 'item' '999'}}]") == "[]")
        #expect(
            try Self.render(
                "[{{data 'todos' 'item' request.path.id}}]{{#if (data 'todos' 'item' request.path.id)}}y{{else}}n{{/if}}",
                target: "/todos/5", pathParameters: ["id": "5"]) == "[]n")
    }

    @Test("An unknown collection, an unknown operation or a missing argument writes [ERROR: …]")
    func errors() throws {
        #expect(try Self.render("{{data 'nope' 'count'}}") == "[ERROR: No data collection named nope]")
        #expect(try Self.render("{{data 'nope' 'items'}}") == "[ERROR: No data collection named nope]")
        #expect(try Self.render("{{data 'nope' 'item' '1'}}") == "[ERROR: No data collection named nope]")
        #expect(
            try Self.render("{{data 'todos' 'first'}}")
                == "[ERROR: Unknown data operation first, expected count, items or item]")
        #expect(
            try Self.render("{{data 'todos' 'item'}}") == "[ERROR: data item expects the id of an item of todos]")
        #expect(
            try Self.render("{{data request.query.c 'count'}}")
                == "[ERROR: data expects a collection name and count, items or item with an id]")
        #expect(try Self.render("{{#each (data 'nope' 'items')}}x{{else}}none{{/each}}") == "none")
    }

    @Test("Without a data store (a template rendered outside a server) data writes [ERROR: …]")
    func noSource() throws {
        #expect(
            try Self.render("{{data 'todos' 'count'}}", data: nil)
                == "[ERROR: No data store to read the collection todos from]")
        #expect(
            try Template("{{data 'todos' 'items'}}").render(for: HTTPRequest(method: .get, target: "/"))
                == "[ERROR: No data store to read the collection todos from]")
        let rendered = try ResponseTemplate(
            ResponseDefinition.text("{{data 'todos' 'item' '1'}}").templated(), stubID: "id-1", stubName: nil
        ).render(
            HTTPRequest(method: .get, target: "/"), pathParameters: [:], serverOrigin: "http://localhost",
            limits: TemplateLimits()
        ).get()
        #expect(
            String(decoding: rendered.response.body, as: UTF8.self)
                == "[ERROR: No data store to read the collection todos from]")
    }

    @Test("ResponseTemplate.render passes its data store to the helper, path parameters too")
    func responseTemplate() throws {
        let template = try ResponseTemplate(
            ResponseDefinition.text(
                "{{data 'todos' 'count'}} {{#with (data 'todos' 'item' request.path.id)}}{{title}}{{/with}}"
            )
            .templated(), stubID: "id-1", stubName: nil)
        let rendered = try template.render(
            HTTPRequest(method: .get, target: "/todos/1"), pathParameters: ["id": "1"],
            serverOrigin: "http://localhost", limits: TemplateLimits(), data: Self.store
        ).get()
        #expect(rendered.response.status.code == 200)
        #expect(String(decoding: rendered.response.body, as: UTF8.self) == "3 milk")
    }

    @Test("A bare {{data}} is still a value (a field of that name); more than three arguments is a load error")
    func parsing() throws {
        #expect(
            try Self.render("{{#each (parseJson '[{\"data\": \"d1\"}]')}}{{data}}{{/each}}|{{data}}") == "d1|")
        #expect(throws: TemplateError.self) { try Template("{{data 'todos' 'item' '1' 'extra'}}") }
        // One argument loads (as for the other helpers, a block's body may be the first) and writes the error.
        #expect(
            try Self.render("{{data 'todos'}}")
                == "[ERROR: data expects a collection name and count, items or item with an id]")
    }

    @Test("items is charged one step per item: a large collection stops at the step limit")
    func budget() throws {
        let big = FakeStore(collections: ["big": (0..<5000).map { Self.todo($0, "t\($0)") }])
        let text = "{{size (data 'big' 'items')}}"
        #expect(try Self.render(text, data: big) == "5000")
        var context = TemplateContext(
            HTTPRequest(method: .get, target: "/"), pathParameters: [:], serverOrigin: "http://localhost",
            limits: TemplateLimits(maxSteps: 1000), data: big)
        var out = TemplateOutput()
        try Template(text).render(in: &context, into: &out)
        #expect(context.exceeded == TemplateLimitExceeded(limit: .steps(1000)))
        // count reads no item: the same collection within the same limit.
        var counted = TemplateContext(
            HTTPRequest(method: .get, target: "/"), pathParameters: [:], serverOrigin: "http://localhost",
            limits: TemplateLimits(maxSteps: 1000), data: big)
        var countOut = TemplateOutput()
        try Template("{{data 'big' 'count'}}").render(in: &counted, into: &countOut)
        #expect(counted.exceeded == nil)
        #expect(String(decoding: countOut.bytes, as: UTF8.self) == "5000")
        // The rendered array's bytes count against the output limit.
        var bytes = TemplateContext(
            HTTPRequest(method: .get, target: "/"), pathParameters: [:], serverOrigin: "http://localhost",
            limits: TemplateLimits(maxOutputBytes: 10_000), data: big)
        var bytesOut = TemplateOutput()
        try Template("{{{data 'big' 'items'}}}").render(in: &bytes, into: &bytesOut)
        #expect(bytes.exceeded == TemplateLimitExceeded(limit: .outputBytes(10_000)))
    }
}
