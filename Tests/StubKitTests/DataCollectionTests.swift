import Foundation
import StubHTTP
import StubTestSupport
import Testing

@testable import StubKit

/// The data store's pure parts: declarations read from JSON (and refused with the file and field), the items'
/// bookkeeping, the list query, merge patches and routes.
@Suite("Data collections")
struct DataCollectionTests {
    private func declare(_ json: String) throws -> DataCollection {
        try DataCollection(json: try JSONParser.parse(json), file: "collections/x.json", bodyFiles: nil)
    }

    private func refusal(_ json: String) -> String? {
        do {
            _ = try declare(json)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("A declaration reads every field, with defaults, and ids made for seed items without one")
    func declaration() throws {
        let collection = try declare(
            #"{"name":"todos","basePath":"/api/todos/","idField":"key","ids":"integer","seed":[{"key":4},{"t":1}],"#
                + #""priority":2,"maxItems":10,"maxBytes":1000}"#)
        #expect(collection.basePath == "/api/todos")
        #expect(collection.idField == "key")
        #expect(collection.seed == [["key": 4], ["key": 5, "t": 1]])
        #expect(collection.priority == 2 && collection.maxItems == 10 && collection.maxBytes == 1000)
        #expect(collection.source == "collections/x.json")
        let plain = try declare(#"{"name":"a-b_1","basePath":"/a"}"#)
        #expect(plain.ids == .integer && plain.idField == "id" && plain.seed.isEmpty)
        #expect(plain.maxItems == DataCollection.defaultMaxItems && plain.priority == 5)
        // Its JSON reads back as the same declaration.
        #expect(try DataCollection(json: collection.json, file: "collections/x.json", bodyFiles: nil) == collection)
    }

    @Test(
        "A declaration that is not what its author meant is refused with the file and field",
        arguments: [
            (#"[]"#, "collections/x.json: a data collection must be a JSON object"),
            (#"{"basePath":"/a"}"#, "collections/x.json: name: missing"),
            (#"{"name":"a b","basePath":"/a"}"#, "name: \"a b\" is not a collection name"),
            (#"{"name":"a"}"#, "basePath: missing"),
            (#"{"name":"a","basePath":"a"}"#, "basePath: \"a\" must be a path starting with '/'"),
            (#"{"name":"a","basePath":"/a?x=1"}"#, "basePath: \"/a?x=1\" must be a path"),
            (#"{"name":"a","basePath":"/__admin/x"}"#, "under /__admin"),
            (#"{"name":"a","basePath":"/a","ids":"random"}"#, "ids: \"random\" is not a way to make ids"),
            (#"{"name":"a","basePath":"/a","maxItems":0}"#, "maxItems: must be at least 1"),
            (#"{"name":"a","basePath":"/a","maxItems":"5"}"#, "maxItems: expected an integer"),
            (
                #"{"name":"a","basePath":"/a","maxitems":5}"#,
                "unknown field 'maxitems' in a data collection; did you mean 'maxItems'?"
            ),
            (#"{"name":"a","basePath":"/a","seed":{}}"#, "seed: expected an array of objects"),
            (#"{"name":"a","basePath":"/a","seed":[1]}"#, "seed: [0] is not a JSON object"),
            (#"{"name":"a","basePath":"/a","seed":[{"id":1},{"id":1}]}"#, "seed: [1]: a second item with id 1"),
            (#"{"name":"a","basePath":"/a","seed":[{"id":[1]}]}"#, "seed: [0].id must be a string or an integer"),
            (#"{"name":"a","basePath":"/a","seed":[{},{}],"maxItems":1}"#, "more than maxItems (1)"),
            (#"{"name":"a","basePath":"/a","schema":{"type":5}}"#, "schema: invalid JSON Schema"),
            (#"{"name":"a","basePath":"/a","schema":{"required":["t"]},"seed":[{}]}"#, "does not fit the schema"),
            (#"{"name":"a","basePath":"/a","seed":[],"seedFile":"x.json"}"#, "give either seed or seedFile"),
            (#"{"name":"a","basePath":"/a","seedFile":"x.json"}"#, "seedFile: there is no __files folder")
        ])
    func refused(json: String, message: String) {
        let error = refusal(json)
        #expect(error?.contains(message) == true, "\(error ?? "accepted")")
    }

    @Test("The loader reads collections/ (one object or a list), and refuses two with one name or base path")
    func loader() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("collections-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("collections")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"name":"a","basePath":"/a"}"#.utf8).write(to: folder.appendingPathComponent("a.json"))
        try Data(#"{"collections":[{"name":"b","basePath":"/b"},{"name":"c","basePath":"/c"}]}"#.utf8)
            .write(to: folder.appendingPathComponent("bc.json"))
        let loaded = try StubsDirectory.load(root, displayRoot: "Stubs")
        #expect(loaded.collections.map(\.name) == ["a", "b", "c"])
        #expect(loaded.warnings.isEmpty)
        try Data(#"{"collections":[{"name":"d","basePath":"/a"}]}"#.utf8)
            .write(to: folder.appendingPathComponent("d.json"))
        #expect {
            try StubsDirectory.load(root, displayRoot: "Stubs")
        } throws: { error in
            "\(error)".hasPrefix(
                "Stubs/collections/d.json: collections[0].name: a second data collection with the basePath /a")
        }
    }

    @Test("Items: insert makes ids past the largest, refuses a taken id and the bounds; remove compacts")
    func items() throws {
        var items = DataItems(DataCollection(name: "t", basePath: "/t", maxItems: 3, maxBytes: 60), items: [["id": 7]])
        #expect(try items.insert(["x": 1]).key == "8")
        #expect(try items.insert(["id": "a"]).key == "a")
        #expect(throws: DataFailure.duplicate("t", "a")) { try items.insert(["id": "a"]) }
        #expect(throws: DataFailure.self) { try items.insert([:]) }
        #expect(items.count == 3)
        let removed = items.remove("8")
        let removedAgain = items.remove("8")
        #expect(removed && !removedAgain)
        #expect(throws: DataFailure.self) {
            try items.insert(["id": 9, "text": "much too long for sixty bytes in all"])
        }
        #expect(items.all.map(\.key) == ["7", "a"])
        #expect(String(decoding: DataItems.jsonArray(items.all), as: UTF8.self) == #"[{"id":7},{"id":"a"}]"#)
        #expect(items.byteCount == 18)

        var many = DataItems(DataCollection(name: "m", basePath: "/m"), items: [])
        for _ in 0..<300 { _ = try many.insert([:]) }
        #expect((1...250).allSatisfy { many.remove(String($0)) })
        #expect(many.count == 50)
        #expect(many.page(offset: 10, limit: 2).map(\.key) == ["261", "262"])
        #expect(many.slot("300")?.item == ["id": 300])
    }

    @Test("Query: filters by value and path, sort with missing values last, paging")
    func query() throws {
        func slots(_ items: [JSONValue]) -> [DataItems.Slot] {
            items.enumerated().map { DataItems.Slot(key: String($0), item: $1, bytes: []) }
        }
        let all = slots([
            ["n": 2, "s": "b", "o": ["k": "x"], "tags": ["a", "b"]], ["n": 1.0, "s": "a", "ok": true],
            ["s": "c", "n": .null]
        ])
        func keys(_ query: [(String, String)]) throws -> [String] {
            let parsed = try DataQuery(query.map { (name: $0.0, value: $0.1) })
            let kept = parsed.sorted(all.filter { parsed.accepts($0.item) })
            return kept.map(\.key)
        }
        #expect(try keys([("n", "1")]) == ["1"])
        #expect(try keys([("n", "null")]) == ["2"])
        #expect(try keys([("o.k", "x")]) == ["0"])
        #expect(try keys([("tags", "b")]) == ["0"])
        #expect(try keys([("ok", "true")]) == ["1"])
        #expect(try keys([("s", "a"), ("s", "c")]) == ["1", "2"])
        #expect(try keys([("s", "a"), ("n", "2")]) == [])
        #expect(try keys([("sort", "n")]) == ["1", "0", "2"])
        let descending = try keys([("sort", "-n")])
        #expect(descending == ["0", "1", "2"], "\(descending)")
        #expect(try keys([("sort", "-s")]) == ["2", "0", "1"])
        let paged = try DataQuery([(name: "page", value: "3"), (name: "per_page", value: "5")])
        #expect(paged.offset == 10 && paged.limit == 5)
        #expect(throws: DataFailure.self) { try DataQuery([(name: "per_page", value: "x")]) }
    }

    @Test("Merge patch follows RFC 7396's examples")
    func mergePatch() throws {
        let cases: [(String, String, String)] = [
            (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
            (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
            (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
            (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
            (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
            (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
            (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
            (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
            (#"{"a":"foo"}"#, "null", "null"),
            (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
            (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
            (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
            (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#)
        ]
        for (target, patch, result) in cases {
            let patched = DataCollectionStore.mergePatch(try JSONParser.parse(target), try JSONParser.parse(patch))
            #expect(patched.serialized() == result, "\(target) + \(patch)")
        }
    }

    @Test("Routes: the list, one item (decoded), longest base path first, nothing deeper or beside")
    func routes() throws {
        let todos = try DataCollectionStore(DataCollection(name: "t", basePath: "/api/todos"), items: []) { _ in }
        let done = try DataCollectionStore(DataCollection(name: "d", basePath: "/api/todos/done"), items: []) { _ in }
        let routes = DataRoutes([todos, done])
        func route(_ path: String) -> String? {
            routes.route(Substring(path)).map { "\($0.store.collection.name) \($0.key ?? "-")" }
        }
        #expect(route("/api/todos") == "t -")
        #expect(route("/api/todos/") == "t -")
        #expect(route("/api/todos/4") == "t 4")
        #expect(route("/api/todos/a%20b") == "t a b")
        #expect(route("/api/todos/done") == "d -")
        #expect(route("/api/todos/done/1") == "d 1")
        #expect(route("/api/todos/4/x") == nil)
        #expect(route("/api/todosx") == nil)
        #expect(route("/api") == nil)
        #expect(PercentEncoding.pathSegment("a b/é") == "a%20b%2F%C3%A9")
    }
}
