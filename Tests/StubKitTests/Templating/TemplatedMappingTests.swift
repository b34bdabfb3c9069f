import Foundation
import StubHTTP
import Testing

@testable import StubKit
@testable import StubTemplating

/// A temporary stubs directory, removed when the test ends.
private final class TemplateStubs {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tmpl-stubs-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func write(_ relative: String, _ text: String) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func mapping(_ response: String, transformers: Bool = true) throws {
        let list = transformers ? #""transformers": ["response-template"], "# : ""
        try write("mappings/t.json", #"{"request": {"urlPath": "/t"}, "response": {\#(list)\#(response)}}"#)
    }

    func loadError(global: Bool = false) -> String? {
        do {
            _ = try StubsDirectory.load(root, displayRoot: "Stubs", globalResponseTemplating: global)
            return nil
        } catch {
            return error.description
        }
    }

    func load(global: Bool = false) throws -> [StubMapping] {
        try StubsDirectory.load(root, displayRoot: "Stubs", globalResponseTemplating: global).mappings
    }
}

@Suite("Response templates in stub files")
struct TemplatedMappingTests {
    @Test(
        "A bad template stops loading, naming the file, the field and the position",
        arguments: [
            (
                #""body": "ok\n  {{nope.x 1}}""#,
                "Stubs/mappings/t.json: response.body: template error at 2:5: unknown helper 'nope.x'"
            ),
            (
                #""headers": {"X-Id": "{{#if x}}"}"#,
                "Stubs/mappings/t.json: response.headers.X-Id: template error at 1:1: {{#if}} is never closed (expected {{/if}})"
            ),
            (
                #""jsonBody": {"user": [1, {"login": "{{request.path.[1]"}]}"#,
                "Stubs/mappings/t.json: response.jsonBody.user[1].login: template error at 1:19: unexpected end of template, expected '}}'"
            ),
            (
                #""bodyFileName": "bad.txt""#,
                "Stubs/mappings/t.json: response.bodyFileName: template error in 'bad.txt' at 2:3: {{/each}} closes no open block"
            ),
            (
                #""bodyFileName": "pages/{{request.query.p}}.html""#,
                "Stubs/mappings/t.json: response.bodyFileName: template error in 'pages/b.html' at 1:1: {{else}} outside a block"
            ),
            (
                #""bodyFileName": "{{request.path.[0]""#,
                "Stubs/mappings/t.json: response.bodyFileName: template error at 1:19: unexpected end of template, expected '}}'"
            ),
            (
                #""transformers": "response-template""#,
                #"Stubs/mappings/t.json: response.transformers: expected an array of strings such as ["response-template"], found "response-template""#
            )
        ])
    func badTemplates(_ row: (response: String, expected: String)) throws {
        let stubs = try TemplateStubs()
        try stubs.write("__files/bad.txt", "line 1\n  {{/each}}")
        try stubs.write("__files/pages/a.html", "fine {{request.method}}")
        try stubs.write("__files/pages/b.html", "{{else}}")
        try stubs.mapping(row.response, transformers: !row.response.contains("transformers"))
        #expect(stubs.loadError() == row.expected)
    }

    @Test("Without the transformer a response is not a template; --global-response-templating makes it one")
    func localAndGlobal() throws {
        let stubs = try TemplateStubs()
        try stubs.mapping(#""body": "{{nope.x 1}}""#, transformers: false)
        #expect(stubs.loadError() == nil)
        #expect(
            stubs.loadError(global: true)
                == "Stubs/mappings/t.json: response.body: template error at 1:3: unknown helper 'nope.x'")
    }

    @Test(
        "A helper of no WireMock core loads with a warning naming file, field and helper; the stub answers 500 naming it"
    )
    func unknownHelper() throws {
        let stubs = try TemplateStubs()
        try stubs.mapping(
            #""headers": {"X-Name": "{{customName 'Name.lastName'}}"}, "body": "a {{customName 'Name.firstName'}} {{#faker}}x{{/faker}} {{upper (fakeIt 1)}}""#
        )
        let loaded = try StubsDirectory.load(stubs.root, displayRoot: "Stubs")
        #expect(
            loaded.warnings == [
                "warning: response.headers.X-Name: template helper 'customName' is not implemented by stubserver (it is in no WireMock core); a response that uses it answers 500 naming it (used by Stubs/mappings/t.json)",
                "warning: response.body: template helper 'customName' is not implemented by stubserver (it is in no WireMock core); a response that uses it answers 500 naming it (used by Stubs/mappings/t.json)",
                "warning: response.body: template helper 'faker' is not implemented by stubserver (it is in no WireMock core); a response that uses it answers 500 naming it (used by Stubs/mappings/t.json)",
                "warning: response.body: template helper 'fakeIt' is not implemented by stubserver (it is in no WireMock core); a response that uses it answers 500 naming it (used by Stubs/mappings/t.json)"
            ])
        let mapping = try #require(loaded.mappings.first)
        let template = try ResponseTemplate(mapping.response, stubID: "id-1", stubName: nil)
        let rendered = try template.render(
            StubHTTPRequest(method: .get, target: "/t"), pathParameters: [:], serverOrigin: "http://localhost",
            limits: TemplateLimits()
        ).get()
        // WireMock 2.35.1 (for the faker extension's `random` without the extension): 500, "could not find helper: 'random'".
        #expect(rendered.response.status.code == 500)
        #expect(
            String(decoding: rendered.response.body, as: UTF8.self)
                == "stubserver: stub id-1: could not find helper: 'customName' (stubserver implements WireMock's core helpers only)\n"
        )
    }

    @Test("transformers round-trip through the admin JSON; a templated file name reads its candidates at load")
    func transformersAndCandidates() throws {
        let stubs = try TemplateStubs()
        try stubs.write("__files/users/a.json", #"{"login": "a"}"#)
        try stubs.write("__files/users/b.json", #"{"login": "{{request.path.[1]}}"}"#)
        try stubs.write("__files/users/notes.txt", "not a candidate")
        try stubs.write("__files/other.json", "not a candidate")
        try stubs.mapping(#""bodyFileName": "users/{{request.path.[1]}}.json""#)
        let mapping = try #require(try stubs.load().first)
        #expect(mapping.response.transformers == ["response-template"])
        #expect(mapping.response.json["transformers"] == .array([.string("response-template")]))
        #expect(mapping.response.json["bodyFileName"] == .string("users/{{request.path.[1]}}.json"))
        let files = try #require(mapping.response.bodyFileSet)
        #expect(files.files.keys.sorted() == ["users/a.json", "users/b.json"])
        let compiled = try TemplatedBodyFiles(files)
        #expect(compiled.template(named: "users/../users/a.json") == nil)
        #expect(compiled.template(named: "users//./a.json") != nil)
    }

    @Test("A templated file name whose folder escapes __files is refused")
    func escapingFolder() throws {
        let stubs = try TemplateStubs()
        try stubs.mapping(#""bodyFileName": "../mappings/{{request.path.[1]}}""#)
        #expect(
            stubs.loadError()
                == "Stubs/mappings/t.json: response.bodyFileName: 'bodyFileName' '../mappings/{{request.path.[1]}}' escapes Stubs/__files"
        )
    }
}

@Suite("Response templates are parsed once")
struct TemplateParsedOnceTests {
    @Test("Adding or removing other stubs reuses the parsed template; changing the stub parses it again")
    func reusedAcrossStubChanges() throws {
        let templated = StubMapping(
            id: "t", request: .get("/t"), response: ResponseDefinition(body: .text("{{request.method}}")).templated())
        let store = StubStore(fileMappings: [templated])
        let first = try #require(store.snapshot.responses[0].parsedTemplate)
        store.add(StubMapping(id: "other", request: .get("/o"), response: ResponseDefinition(body: .text("o"))))
        #expect(store.snapshot.responses[0].parsedTemplate === first)
        store.remove(id: "other")
        #expect(store.snapshot.responses[0].parsedTemplate === first)
        var changed = templated
        changed.response.body = .text("{{request.url}}")
        store.replace(id: "t", with: changed)
        let second = try #require(store.snapshot.responses[0].parsedTemplate)
        #expect(second !== first)
    }
}

extension StubResponse {
    /// The template this response renders, if it is templated.
    fileprivate var parsedTemplate: ResponseTemplate? {
        if case .template(let template, _) = answer { return template }
        return nil
    }
}
