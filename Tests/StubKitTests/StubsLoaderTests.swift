import Foundation
import StubMatching
import StubTemplating
import Testing

@testable import StubKit

/// A temporary stubs directory, removed when the test ends.
private final class TempStubs {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stubs-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func write(_ relative: String, _ text: String) throws {
        try write(relative, Array(text.utf8))
    }

    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func symlink(_ relative: String, to destination: String) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
    }

    func load(_ options: StubsLoadOptions = StubsLoadOptions()) throws(StubsLoadError) -> StubsLoadResult {
        try StubsDirectory.load(root, displayRoot: "Stubs", options: options)
    }

    func loadError(_ options: StubsLoadOptions = StubsLoadOptions()) -> String? {
        do {
            _ = try load(options)
            return nil
        } catch {
            return error.description
        }
    }
}

private func mapping(_ url: String, response: String = "{}") -> String {
    #"{"request": {"url": "\#(url)"}, "response": \#(response)}"#
}

@Suite("Stubs directory loader")
struct StubsLoaderTests {
    @Test("Loads nested folders and mappings files in byte order of their paths")
    func loadsInOrder() throws {
        // Byte order: "B" < "a" and "a.json" < "a/…" ('.' is 0x2E, '/' is 0x2F).
        let stubs = try TempStubs()
        try stubs.write("mappings/b.json", mapping("/b"))
        try stubs.write("mappings/a/z.json", mapping("/a/z"))
        try stubs.write("mappings/B.json", mapping("/B"))
        try stubs.write("mappings/a.json", #"{"mappings": [\#(mapping("/a0")), \#(mapping("/a1"))]}"#)
        try stubs.write("mappings/a/deeper/x.json", mapping("/a/deeper/x"))
        try stubs.write("mappings/ignored.JSON", mapping("/upper"))
        try stubs.write("mappings/notes.txt", "not json")
        let result = try stubs.load()
        #expect(
            result.mappings.map(\.request.url) == ["/B", "/a0", "/a1", "/a/deeper/x", "/a/z", "/b"].map(URLMatcher.url))
        #expect(
            result.mappings.map(\.source) == [
                "Stubs/mappings/B.json", "Stubs/mappings/a.json [0]", "Stubs/mappings/a.json [1]",
                "Stubs/mappings/a/deeper/x.json", "Stubs/mappings/a/z.json", "Stubs/mappings/b.json"
            ])
        #expect(result.warnings.isEmpty)
        // Ids are derived from the path, so a second load gives the same ones.
        #expect(try stubs.load().mappings.map(\.id) == result.mappings.map(\.id))
    }

    @Test("Reads body files, nested and binary, at load time")
    func readsBodyFiles() throws {
        let stubs = try TempStubs()
        let binary: [UInt8] = [0x00, 0xFF, 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A]
        try stubs.write("__files/users/octocat.json", #"{"login":"octocat"}"#)
        try stubs.write("__files/img/logo.png", binary)
        try stubs.write(
            "mappings/m.json",
            #"{"mappings": [\#(mapping("/u", response: #"{"bodyFileName": "users/octocat.json"}"#)), \#(mapping("/i", response: #"{"bodyFileName": "img/logo.png"}"#))]}"#
        )
        let result = try stubs.load()
        #expect(
            result.mappings.map(\.response.body) == [
                .file(name: "users/octocat.json", bytes: Array(#"{"login":"octocat"}"#.utf8)),
                .file(name: "img/logo.png", bytes: binary)
            ])
    }

    @Test("Accepts a symlink that stays inside __files")
    func acceptsInnerSymlink() throws {
        let stubs = try TempStubs()
        try stubs.write("__files/real/a.txt", "A")
        try stubs.symlink("__files/alias.txt", to: stubs.root.appendingPathComponent("__files/real/a.txt").path)
        try stubs.write("mappings/m.json", mapping("/a", response: #"{"bodyFileName": "alias.txt"}"#))
        #expect(try stubs.load().mappings.first?.response.body == .file(name: "alias.txt", bytes: Array("A".utf8)))
    }

    static let bodyFileErrors: [(String, String)] = [
        (
            "../secret.txt",
            "Stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' '../secret.txt' escapes Stubs/__files"
        ),
        (
            "users/../../secret.txt",
            "Stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' 'users/../../secret.txt' escapes Stubs/__files"
        ),
        (
            "/etc/hostname",
            "Stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' '/etc/hostname' must be a path relative to Stubs/__files"
        ),
        (
            "users/x.json",
            "Stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' 'users/x.json' not found in Stubs/__files"
        ),
        ("", "Stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' is empty"),
        (
            "users",
            "Stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' 'users' is a directory in Stubs/__files"
        )
    ]

    @Test(
        "With strictBodyFiles, rejects body file names that escape __files or do not exist; without, they answer 500",
        arguments: bodyFileErrors)
    func rejectsBadBodyFiles(_ name: String, _ expected: String) throws {
        let stubs = try TempStubs()
        try stubs.write("secret.txt", "secret")
        try stubs.write("__files/users/a.json", "{}")
        try stubs.write("mappings/m.json", mapping("/a", response: #"{"bodyFileName": "\#(name)"}"#))
        #expect(stubs.loadError(StubsLoadOptions(strictBodyFiles: true)) == expected)
        // Without it, each loads with a warning and the stub answers 500, as WireMock does ("not permitted" for
        // a name outside __files); the file is never read.
        let warnings = try stubs.load().warnings.map(\.description)
        #expect(warnings.count == 1 && warnings[0].contains("answers 500"), "\(warnings)")
    }

    @Test("A missing body file loads with a warning, the stub answering 500 with the reason; check calls it an error")
    func missingBodyFileAnswers500() throws {
        let stubs = try TempStubs()
        try stubs.write(
            "mappings/m.json",
            mapping(
                "/a",
                response:
                    #"{"status": 200, "headers": {"Content-Type": "application/json"}, "bodyFileName": "gone.json"}"#))
        try stubs.write("mappings/n.json", mapping("/b", response: #"{"body": "fine"}"#))
        let loaded = try stubs.load()
        #expect(loaded.mappings.count == 2)
        #expect(
            loaded.warnings == [
                "warning: response.bodyFileName: 'bodyFileName' 'gone.json' not found in Stubs/__files; the stub answers 500 (--strict makes this an error) (used by Stubs/mappings/m.json)"
            ])
        let broken = try #require(loaded.mappings.first)
        // The mapping keeps its file name (the admin API lists it as written); only its answer changes.
        #expect(broken.response.body == .file(name: "gone.json", bytes: []))
        let answer = StubResponse(broken).prepared.response
        #expect(answer.status.code == 500)
        #expect(answer.headers["Content-Type"] == ["text/plain; charset=utf-8"])
        #expect(
            String(decoding: answer.body, as: UTF8.self)
                == "stubserver: Stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' 'gone.json' not found in Stubs/__files\n"
        )

        let check = StubsCheck(stubs: stubs.root)
        #expect(
            check.errors.map(\.description).contains {
                $0.hasSuffix("'bodyFileName' 'gone.json' not found in \(check.directory)/__files")
            })
        #expect(!check.isValid)
    }

    @Test("Never reads through a symlink in __files that points outside it (strict: an error; else a 500 stub)")
    func rejectsSymlinkEscape() throws {
        let stubs = try TempStubs()
        try stubs.write("secret.txt", "secret")
        try stubs.write("__files/keep.txt", "ok")
        try stubs.symlink("__files/link.txt", to: stubs.root.appendingPathComponent("secret.txt").path)
        try stubs.symlink("__files/dir", to: stubs.root.path)
        try stubs.write("mappings/m.json", mapping("/a", response: #"{"bodyFileName": "link.txt"}"#))
        let strict = StubsLoadOptions(strictBodyFiles: true)
        let message = try #require(stubs.loadError(strict))
        #expect(
            message.hasPrefix("Stubs/mappings/m.json: response.bodyFileName: 'bodyFileName' 'link.txt' resolves to "))
        #expect(message.hasSuffix("/secret.txt, outside Stubs/__files"))
        let loaded = try stubs.load()
        #expect(loaded.mappings.first?.response.body == .file(name: "link.txt", bytes: []))
        #expect(loaded.warnings.first?.description.contains("outside Stubs/__files; the stub answers 500") == true)
        try stubs.write("mappings/m.json", mapping("/a", response: #"{"bodyFileName": "dir/secret.txt"}"#))
        #expect(stubs.loadError(strict)?.hasSuffix("/secret.txt, outside Stubs/__files") == true)
    }

    @Test("Reports syntax errors as file:line:column")
    func reportsSyntaxErrors() throws {
        let stubs = try TempStubs()
        try stubs.write("mappings/a.json", mapping("/a"))
        try stubs.write(
            "mappings/users.json",
            "{\n  \"request\": {\"url\": \"/u\"},\n  \"response\": {\"status\": 200\n  \"body\": \"x\"}\n}")
        #expect(stubs.loadError() == "Stubs/mappings/users.json:4:3: expected ',' or '}' after object member")
        try stubs.write("mappings/users.json", [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D])
        #expect(stubs.loadError() == "Stubs/mappings/users.json:1:3: invalid UTF-8 byte 0xC3 in string")
        try stubs.write("mappings/users.json", "")
        #expect(stubs.loadError() == "Stubs/mappings/users.json:1:1: unexpected end of input, expected a value")
    }

    @Test("Reports mapping errors with the path inside a mappings file")
    func reportsMappingErrors() throws {
        let stubs = try TempStubs()
        try stubs.write(
            "mappings/sub/all.json",
            #"{"mappings": [\#(mapping("/a")), \#(mapping("/b")), \#(mapping("/c", response: #"{"status": "200"}"#))]}"#
        )
        #expect(
            stubs.loadError()
                == #"Stubs/mappings/sub/all.json: mappings[2].response.status: expected an integer, found "200""#)
    }

    @Test("Handles missing folders")
    func missingFolders() throws {
        let stubs = try TempStubs()
        #expect(try stubs.load().mappings.isEmpty)
        let missing = stubs.root.appendingPathComponent("nope")
        do {
            _ = try StubsDirectory.load(missing, displayRoot: "Stubs/nope")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "stubs directory 'Stubs/nope' does not exist")
        }
        try stubs.write("mappings", "file, not folder")
        #expect(stubs.loadError() == "'Stubs/mappings' is not a directory")
    }

    @Test("Uses the root as given when no display root is passed")
    func defaultDisplayRoot() throws {
        let stubs = try TempStubs()
        try stubs.write("mappings/a.json", mapping("/a", response: #"{"status": 1}"#))
        do {
            _ = try StubsDirectory.load(URL(fileURLWithPath: stubs.root.path + "/"))
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "\(stubs.root.path)/mappings/a.json: response.status: expected an integer from 100 to 999, found 1"
            )
        }
    }

    @Test("Groups warnings per field, listing each file once")
    func groupsWarnings() throws {
        let stubs = try TempStubs()
        try stubs.write(
            "mappings/login.json",
            #"{"postServeActions": {}, "request": {"url": "/l"}, "response": {"transformers": ["t"]}}"#)
        try stubs.write(
            "mappings/cart.json",
            #"{"mappings": [{"postServeActions": {}, "request": {}, "response": {}}, {"postServeActions": {}, "request": {"foo": 1}, "response": {}}]}"#
        )
        try stubs.write("mappings/plain.json", mapping("/p"))
        let result = try stubs.load(StubsLoadOptions(lenientMatchers: true))
        #expect(
            result.warnings == [
                "warning: 'postServeActions' is not supported by stubserver and is ignored (used by Stubs/mappings/cart.json, Stubs/mappings/login.json)",
                "warning: 'foo' in request is not supported by stubserver: the stub never matches (used by Stubs/mappings/cart.json)"
            ])
        #expect(result.warningDetails.count == 4)
        #expect(result.mappings.count == 4)
    }
}

extension StubsLoaderTests {
    @Test("Loading a stubs directory and building its route table compiles each regex once")
    func compilesEachRegexOnce() throws {
        let stubs = try TempStubs()
        try stubs.write(
            "mappings/a.json",
            #"{"request": {"urlPattern": "/a/[0-9]+", "bodyPatterns": [{"matches": "x+y"}], "#
                + #""headers": {"X-A": {"doesNotMatch": "no.*"}}}, "response": {}}"#)
        try stubs.write(
            "mappings/b.json",
            #"{"request": {"urlPath": "/b", "queryParameters": {"q": {"and": [{"matches": "[a-z]+"}, "#
                + #"{"not": {"matches": "zz"}}]}}}, "response": {}}"#)
        try stubs.write(
            "mappings/ws.json",
            #"{"request": {"urlPath": "/ws"}, "response": {"status": 101}, "metadata": {"stubserver": {"webSocket": "#
                + #"{"onMessage": [{"matches": {"matches": "w+z"}, "send": [{"text": "ok"}]}]}}}}"#)
        let counter = CompileCounter()
        let store = try CompiledRegex.$compilations.withValue(counter) {
            let loaded = try stubs.load()
            // As the server builds it: URL patterns owned by their stub, for budget warnings.
            return StubStore(fileMappings: loaded.mappings, compiled: loaded.compiled, regexWarnings: { _ in })
        }
        // The loader's check is the route table's compile.
        #expect(counter.patterns.sorted() == ["/a/[0-9]+", "[a-z]+", "no.*", "w+z", "x+y", "zz"])
        #expect(store.snapshot.table.match(StubHTTPRequest(method: .get, target: "/b?q=abc")) != nil)
        #expect(store.snapshot.table.match(StubHTTPRequest(method: .get, target: "/b?q=zz")) == nil)
    }

    @Test("A server compiles each regex of its stubs directory once per load, at start and at reload")
    func serverCompilesEachRegexOncePerLoad() throws {
        let stubs = try TempStubs()
        try stubs.write(
            "mappings/a.json",
            #"{"request": {"urlPattern": "/a/[0-9]+", "bodyPatterns": [{"matches": "x+y"}]}, "response": {}}"#)
        let counter = CompileCounter()
        let server = try CompiledRegex.$compilations.withValue(counter) {
            var configuration = StubServer.Configuration()
            configuration.log = LogSink(.handler { _ in })
            let server = try StubServer(stubs: stubs.root, configuration: configuration)
            #expect(counter.patterns.sorted() == ["/a/[0-9]+", "x+y"])
            try stubs.write(
                "mappings/b.json",
                #"{"request": {"urlPathPattern": "/b/.*", "headers": {"X": {"matches": "y+"}}}, "response": {}}"#)
            try server.reloadStubs()
            return server
        }
        // The reload read a.json again (its regexes compiled by that load's check, the unchanged stub's pattern
        // kept by the route table) and b.json's regexes once.
        #expect(counter.patterns.sorted() == ["/a/[0-9]+", "/a/[0-9]+", "/b/.*", "x+y", "x+y", "y+"])
        #expect(server.mappings.count == 2)
    }
}

extension StubsLoaderTests {
    @Test("Loading a stubs directory and building its route table parses each response template once")
    func parsesEachTemplateOnce() throws {
        let stubs = try TempStubs()
        try stubs.write(
            "mappings/a.json",
            #"{"request": {"urlPath": "/a"}, "response": {"body": "a {{request.path}}", "#
                + #""headers": {"X-A": "{{request.method}}"}, "transformers": ["response-template"]}}"#)
        try stubs.write(
            "mappings/b.json",
            #"{"request": {"urlPath": "/b"}, "response": {"transformers": ["response-template"]}, "#
                + #""metadata": {"stubserver": {"events": [{"data": "b {{request.path}}"}]}}}"#)
        try stubs.write(
            "mappings/c.json",
            #"{"request": {"urlPath": "/c"}, "response": {"status": 101, "transformers": ["response-template"]}, "#
                + #""metadata": {"stubserver": {"webSocket": {"onConnect": [{"text": "c {{request.path}}"}]}}}}"#)
        try stubs.write(
            "mappings/d.json",
            #"{"request": {"urlPath": "/d"}, "response": {"body": "d {{request.path}}", "#
                + #""transformers": ["response-template"]}, "metadata": {"stubserver": {"then": ["#
                + #"{"body": "d2 {{request.path}}", "transformers": ["response-template"]}]}}}"#)
        let counter = CompileCounter()
        let store = try Template.$parses.withValue(counter) {
            let loaded = try stubs.load()
            return StubStore(fileMappings: loaded.mappings, compiled: loaded.compiled)
        }
        // The loader's check is what serving renders.
        #expect(
            counter.patterns.sorted() == [
                "a {{request.path}}", "b {{request.path}}", "c {{request.path}}", "d {{request.path}}",
                "d2 {{request.path}}", "{{request.method}}"
            ])
        #expect(store.snapshot.mappings.count == 4)
    }
}
