import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// The data store over real sockets: each endpoint and each error of a collection's REST API, stubs winning by
/// priority, the admin API, the Swift API in process and through the remote client, isolated servers' own
/// copies, parallel writers, and the bounds.
@Suite("Data store")
struct DataStoreTests {
    private struct Todo: Codable, Equatable {
        var id: Int
        var title: String
        var done: Bool
    }

    private static let todos = DataCollection(
        name: "todos", basePath: "/api/todos",
        seed: [
            ["id": 1, "title": "Buy milk", "done": false], ["id": 2, "title": "Walk the dog", "done": true],
            ["id": 3, "title": "Call Ada", "done": false]
        ],
        schema: [
            "type": "object", "required": ["title"],
            "properties": ["title": ["type": "string"], "done": ["type": "boolean"]]
        ])

    private func server(_ collections: DataCollection...) throws -> StubServer {
        let server = try StubServer.start()
        for collection in collections { try server.addDataCollection(collection) }
        return server
    }

    private func send(_ server: StubServer, _ method: String, _ path: String, _ body: String? = nil) async throws
        -> Fetched
    {
        try await HTTP.send(server, method, path, body: body.map { Data($0.utf8) })
    }

    private func ids(_ fetched: Fetched) throws -> [Int] {
        let items = try #require(JSONSerialization.jsonObject(with: fetched.body) as? [[String: Any]])
        return items.compactMap { $0["id"] as? Int }
    }

    @Test("GET lists the items in order with X-Total-Count; GET of one id answers that item")
    func listAndGet() async throws {
        let server = try server(Self.todos)
        try await shuttingDown(server) { () async throws in
            let list = try await HTTP.get(server, "/api/todos")
            #expect(list.status == 200)
            #expect(list.header("Content-Type") == "application/json")
            #expect(list.header("X-Total-Count") == "3")
            #expect(try ids(list) == [1, 2, 3])
            #expect(try await HTTP.get(server, "/api/todos/").status == 200)
            let one = try await HTTP.get(server, "/api/todos/2")
            #expect(one.text == #"{"id":2,"title":"Walk the dog","done":true}"#)
            let head = try await send(server, "HEAD", "/api/todos/2")
            #expect(head.status == 200 && head.body.isEmpty)
        }
    }

    @Test("Filters, sort and both kinds of paging")
    func query() async throws {
        let server = try server(Self.todos)
        try await shuttingDown(server) { () async throws in
            let open = try await HTTP.get(server, "/api/todos?done=false")
            #expect(try ids(open) == [1, 3])
            #expect(open.header("X-Total-Count") == "2")
            #expect(try ids(try await HTTP.get(server, "/api/todos?id=1&id=2")) == [1, 2])
            #expect(try ids(try await HTTP.get(server, "/api/todos?title=Call%20Ada")) == [3])
            #expect(try ids(try await HTTP.get(server, "/api/todos?sort=-id")) == [3, 2, 1])
            #expect(try ids(try await HTTP.get(server, "/api/todos?sort=title")) == [1, 3, 2])
            #expect(try ids(try await HTTP.get(server, "/api/todos?sort=done,-id")) == [3, 1, 2])
            #expect(try ids(try await HTTP.get(server, "/api/todos?sort=id&order=desc")) == [3, 2, 1])
            let page = try await HTTP.get(server, "/api/todos?limit=1&offset=1")
            #expect(try ids(page) == [2])
            #expect(page.header("X-Total-Count") == "3")
            #expect(try ids(try await HTTP.get(server, "/api/todos?page=2&per_page=2")) == [3])
            #expect(try ids(try await HTTP.get(server, "/api/todos?done=false&sort=-id&limit=1")) == [3])
            #expect(try ids(try await HTTP.get(server, "/api/todos?nothing=here")) == [])
            for bad in ["limit=-1", "offset=x", "page=0", "order=up", "page=1&limit=2"] {
                let answer = try await HTTP.get(server, "/api/todos?" + bad)
                #expect(answer.status == 400, "\(bad)")
                #expect(answer.header("Content-Type") == "application/problem+json", "\(bad)")
            }
        }
    }

    @Test("POST adds an item with the next integer id: 201, Location, the item")
    func post() async throws {
        let server = try server(Self.todos)
        try await shuttingDown(server) { () async throws in
            let created = try await send(server, "POST", "/api/todos", #"{"title":"Write tests","done":false}"#)
            #expect(created.status == 201)
            #expect(created.header("Location") == "/api/todos/4")
            #expect(created.text == #"{"id":4,"title":"Write tests","done":false}"#)
            #expect(try await HTTP.get(server, "/api/todos/4").status == 200)
            // An id given is kept; the next one made follows the largest.
            #expect(try await send(server, "POST", "/api/todos", #"{"id":10,"title":"Ten"}"#).status == 201)
            #expect(
                try await send(server, "POST", "/api/todos", #"{"title":"Eleven"}"#).header("Location")
                    == "/api/todos/11")
        }
    }

    @Test("UUID ids, string ids in paths, percent-encoded in Location")
    func uuidAndStringIDs() async throws {
        let server = try server(DataCollection(name: "notes", basePath: "/notes", idField: "key", ids: .uuid))
        try await shuttingDown(server) { () async throws in
            let made = try await send(server, "POST", "/notes", #"{"text":"hi"}"#)
            let location = try #require(made.header("Location"))
            #expect(location.count == "/notes/".count + 36)
            #expect(try await HTTP.get(server, location).status == 200)
            let spaced = try await send(server, "POST", "/notes", #"{"key":"a b/c","text":"x"}"#)
            #expect(spaced.header("Location") == "/notes/a%20b%2Fc")
            #expect(try await HTTP.get(server, "/notes/a%20b%2Fc").text.contains(#""key":"a b/c""#))
        }
    }

    @Test("PUT replaces an item, PATCH merges into it (RFC 7396), DELETE removes it")
    func putPatchDelete() async throws {
        let server = try server(Self.todos)
        try await shuttingDown(server) { () async throws in
            let put = try await send(server, "PUT", "/api/todos/1", #"{"title":"Buy oat milk","done":true}"#)
            #expect(put.status == 200)
            #expect(put.text == #"{"id":1,"title":"Buy oat milk","done":true}"#)
            let patched = try await send(
                server, "PATCH", "/api/todos/1", #"{"done":false,"tags":{"shop":"corner"},"title":"Milk"}"#)
            #expect(patched.text == #"{"id":1,"title":"Milk","done":false,"tags":{"shop":"corner"}}"#)
            let removed = try await send(server, "PATCH", "/api/todos/1", #"{"tags":null}"#)
            #expect(removed.text == #"{"id":1,"title":"Milk","done":false}"#)
            let deleted = try await send(server, "DELETE", "/api/todos/1")
            #expect(deleted.status == 204)
            #expect(try await HTTP.get(server, "/api/todos/1").status == 404)
            #expect(try ids(try await HTTP.get(server, "/api/todos")) == [2, 3])
        }
    }

    @Test("Errors: 400 not JSON, 404 unknown id, 409 duplicate id, 422 schema or not an object, 405, id changes")
    func errors() async throws {
        let server = try server(Self.todos)
        try await shuttingDown(server) { () async throws in
            func expectProblem(_ fetched: Fetched, _ status: Int, _ text: String) {
                #expect(fetched.status == status, "\(fetched.text)")
                #expect(fetched.header("Content-Type") == "application/problem+json")
                #expect(fetched.text.contains(text), "\(fetched.text)")
            }
            expectProblem(try await send(server, "POST", "/api/todos", "{nope"), 400, "The body is not JSON")
            expectProblem(try await send(server, "POST", "/api/todos", ""), 400, "empty")
            expectProblem(try await HTTP.get(server, "/api/todos/99"), 404, "todos has no item with id 99")
            expectProblem(try await send(server, "PUT", "/api/todos/99", #"{"title":"x"}"#), 404, "99")
            expectProblem(try await send(server, "PATCH", "/api/todos/99", #"{"title":"x"}"#), 404, "99")
            expectProblem(try await send(server, "DELETE", "/api/todos/99"), 404, "99")
            expectProblem(try await send(server, "POST", "/api/todos", #"{"id":2,"title":"x"}"#), 409, "id 2")
            expectProblem(try await send(server, "POST", "/api/todos", #"{"done":"yes"}"#), 422, "title")
            expectProblem(try await send(server, "POST", "/api/todos", "[1]"), 422, "not a JSON object")
            expectProblem(try await send(server, "PATCH", "/api/todos/2", #"{"title":5}"#), 422, "schema")
            expectProblem(try await send(server, "PUT", "/api/todos/2", #"{"id":3,"title":"x"}"#), 400, "must stay 2")
            expectProblem(try await send(server, "PATCH", "/api/todos/2", #"{"id":null}"#), 400, "must stay 2")
            expectProblem(try await send(server, "POST", "/api/todos", #"{"id":true,"title":"x"}"#), 400, "Invalid id")
            let notAllowed = try await send(server, "DELETE", "/api/todos")
            expectProblem(notAllowed, 405, "DELETE")
            #expect(notAllowed.header("Allow") == "GET, HEAD, POST")
            expectProblem(try await send(server, "POST", "/api/todos/2", "{}"), 405, "POST")
            // Nothing refused changed anything; deeper paths are not the collection's.
            #expect(try ids(try await HTTP.get(server, "/api/todos")) == [1, 2, 3])
            #expect(try await HTTP.get(server, "/api/todos/2").text.contains("Walk the dog"))
            #expect(try await HTTP.get(server, "/api/todos/2/comments").status == 404)
        }
    }

    @Test("A stub of the collection's priority or better answers instead; a worse one does not")
    func stubsWinByPriority() async throws {
        let server = try server(Self.todos)
        try await shuttingDown(server) { () async throws in
            server.stub(.delete("/api/todos/2"), .status(500), priority: 1)
            server.stub(.get(urlPattern: "/api/.*"), .status(418), priority: 10)
            #expect(try await send(server, "DELETE", "/api/todos/2").status == 500)
            #expect(try await HTTP.get(server, "/api/todos/2").status == 200)
            #expect(try await HTTP.get(server, "/api/other").status == 418)
            let journal: [LoggedRequest] = server.requests
            #expect(journal.contains { $0.matchedStub?.id == "data:todos" })
            let unmatched: [LoggedRequest] = server.unmatchedRequests
            #expect(unmatched.isEmpty)
        }
    }

    @Test("The admin API declares, reads, replaces and resets collections; POST /__admin/reset drops run-time ones")
    func admin() async throws {
        let server = try StubServer.start()
        try await shuttingDown(server) { () async throws in
            let declared = try await send(
                server, "POST", "/__admin/stubserver/data",
                #"{"name":"carts","basePath":"/api/carts","ids":"integer","seed":[{"total":3}]}"#)
            #expect(declared.status == 201, "\(declared.text)")
            #expect(try await HTTP.get(server, "/api/carts/1").text == #"{"id":1,"total":3}"#)
            #expect(try await send(server, "POST", "/api/carts", #"{"total":9}"#).status == 201)
            let read = try await HTTP.get(server, "/__admin/stubserver/data/carts").json()
            #expect(read["count"] as? Int == 2)
            #expect((read["items"] as? [[String: Any]])?.count == 2)
            let list = try await HTTP.get(server, "/__admin/stubserver/data").json()
            #expect((list["collections"] as? [[String: Any]])?.first?["name"] as? String == "carts")
            let replaced = try await send(server, "PUT", "/__admin/stubserver/data/carts", #"[{"id":7,"total":1}]"#)
            #expect(replaced.status == 200)
            #expect(try ids(try await HTTP.get(server, "/api/carts")) == [7])
            let refused = try await send(server, "PUT", "/__admin/stubserver/data/carts", #"[{"id":1},{"id":1}]"#)
            #expect(refused.status == 409)
            #expect(try ids(try await HTTP.get(server, "/api/carts")) == [7])
            #expect(try await send(server, "DELETE", "/__admin/stubserver/data/carts").status == 200)
            #expect(try ids(try await HTTP.get(server, "/api/carts")) == [1])
            #expect(try await HTTP.get(server, "/__admin/stubserver/data/nope").status == 404)
            let bad = try await send(
                server, "POST", "/__admin/stubserver/data", #"{"name":"x","basePath":"/x","maxitems":3}"#)
            #expect(bad.status == 422)
            #expect(bad.text.contains("did you mean 'maxItems'"))
            let clash = try await send(
                server, "POST", "/__admin/stubserver/data", #"{"name":"y","basePath":"/api/carts"}"#)
            #expect(clash.status == 409)
            #expect(try await send(server, "POST", "/__admin/reset").status == 200)
            #expect(try await HTTP.get(server, "/api/carts").status == 404)
            #expect(server.dataCollections.isEmpty)
        }
    }

    @Test("Collections from the stubs directory: seed file, reset back to the seed")
    func fromFiles() async throws {
        let root = try StubsFolder()
        defer { root.remove() }
        try root.write("collections/users.json", #"{"name":"users","basePath":"/users","seedFile":"users.json"}"#)
        try root.write("__files/users.json", #"[{"id":1,"login":"octocat"}]"#)
        try root.write("mappings/none.json", #"{"mappings":[]}"#)
        let server = try StubServer.start(stubs: root.url)
        try await shuttingDown(server) { () async throws in
            #expect(try await HTTP.get(server, "/users/1").text == #"{"id":1,"login":"octocat"}"#)
            #expect(try await send(server, "DELETE", "/users/1").status == 204)
            server.reset()
            #expect(try await HTTP.get(server, "/users/1").status == 200)
            #expect(try await send(server, "DELETE", "/users/1").status == 204)
            #expect(try await send(server, "POST", "/__admin/reset").status == 200)
            #expect(try await HTTP.get(server, "/users/1").status == 200)
        }
    }

    @Test("The Swift API reads and seeds with Codable values, in process and through the remote client alike")
    func swiftAPI() async throws {
        let server = try server(Self.todos)
        try await shuttingDown(server) { () async throws in
            let client = StubServerClient(baseURL: server.baseURL)
            for admin in [server, client] as [any StubServerAdmin] {
                try await admin.data("todos").replace(with: [Todo(id: 5, title: "Five", done: false)])
                #expect(try await HTTP.get(server, "/api/todos/5").status == 200)
                #expect(try await admin.data("todos").items(as: Todo.self) == [Todo(id: 5, title: "Five", done: false)])
                #expect(try await send(server, "POST", "/api/todos", #"{"title":"Six","done":true}"#).status == 201)
                #expect(try await admin.data("todos").count == 2)
                try await admin.data("todos").reset()
                #expect(try await admin.data("todos").items(as: Todo.self).map(\.id) == [1, 2, 3])
            }
            try await client.addDataCollection(DataCollection(name: "tags", basePath: "/tags", seed: [["id": 1]]))
            #expect(try server.dataItems("tags") == [["id": 1]])
            await #expect(throws: StubServerClientError.self) { try await client.dataItems("nope") }
            #expect(throws: DataCollectionError.self) { try server.dataItems("nope") }
            #expect(throws: DataCollectionError.self) {
                try server.replaceDataItems("todos", with: [["title": 1]])
            }
        }
    }

    @Test("Isolated servers start with their own copies of the collections")
    func isolated() async throws {
        let root = try StubsFolder()
        defer { root.remove() }
        try root.write("collections/todos.json", #"{"name":"todos","basePath":"/todos","seed":[{"id":1}]}"#)
        let parent = try StubServer.start(stubs: root.url)
        try await shuttingDown(parent) { () async throws in
            let child = try parent.makeIsolatedServer(name: "child")
            #expect(try await send(child, "DELETE", "/todos/1").status == 204)
            #expect(try await HTTP.get(child, "/todos/1").status == 404)
            #expect(try await HTTP.get(parent, "/todos/1").status == 200)
        }
    }

    @Test("Parallel POSTs from many clients never lose an item")
    func parallelWrites() async throws {
        let server = try server(DataCollection(name: "events", basePath: "/events"))
        try await shuttingDown(server) { () async throws in
            let clients = 16
            let writes = 25
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<clients {
                    group.addTask {
                        for write in 0..<writes {
                            let answer = try await send(
                                server, "POST", "/events", #"{"client":\#(client),"n":\#(write)}"#)
                            #expect(answer.status == 201)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let items = try server.dataItems("events")
            #expect(items.count == clients * writes)
            #expect(Set(items.compactMap { $0["id"] }).count == clients * writes)
            let pairs = Set(items.map { "\($0["client"] ?? .null)-\($0["n"] ?? .null)" })
            #expect(pairs.count == clients * writes)
        }
    }

    @Test("Past maxItems or maxBytes a write gets 507 and nothing stored is lost")
    func bounds() async throws {
        let server = try server(
            DataCollection(name: "small", basePath: "/small", maxItems: 2),
            DataCollection(name: "tiny", basePath: "/tiny", maxBytes: 40))
        try await shuttingDown(server) { () async throws in
            #expect(try await send(server, "POST", "/small", "{}").status == 201)
            #expect(try await send(server, "POST", "/small", "{}").status == 201)
            let full = try await send(server, "POST", "/small", "{}")
            #expect(full.status == 507)
            #expect(full.header("Content-Type") == "application/problem+json")
            #expect(full.text.contains("2 items"))
            #expect(try ids(try await HTTP.get(server, "/small")) == [1, 2])
            #expect(try await send(server, "POST", "/tiny", #"{"text":"0123456789"}"#).status == 201)
            let tooBig = try await send(
                server, "PUT", "/tiny/1", #"{"text":"0123456789012345678901234567890123456789"}"#)
            #expect(tooBig.status == 507)
            #expect(try await HTTP.get(server, "/tiny/1").text == #"{"id":1,"text":"0123456789"}"#)
            #expect(throws: DataCollectionError.self) {
                try server.addDataCollection(
                    DataCollection(name: "over", basePath: "/over", seed: [[:], [:]], maxItems: 1))
            }
        }
    }

    @Test("A templated stub reads the store: count, items and one item by path parameter")
    func templates() async throws {
        let server = try server(Self.todos)
        try await shuttingDown(server) { () async throws in
            server.stub(
                .get("/summary"),
                .text(
                    "{{data 'todos' 'count'}} todos, first {{#each (data 'todos' 'items')}}{{#if @first}}{{title}}"
                        + "{{/if}}{{/each}}"
                ).templated())
            server.stub(
                .get(pathTemplate: "/todo-title/{id}"),
                .text("{{#with (data 'todos' 'item' request.path.id)}}{{title}}{{/with}}").templated())
            #expect(try await HTTP.get(server, "/summary").text == "3 todos, first Buy milk")
            #expect(try await send(server, "POST", "/api/todos", #"{"title":"Four"}"#).status == 201)
            #expect(try await HTTP.get(server, "/summary").text.hasPrefix("4 todos"))
            #expect(try await HTTP.get(server, "/todo-title/4").text == "Four")
            #expect(try await HTTP.get(server, "/todo-title/9").text == "")
        }
    }

    @Test("The dashboard lists the collections")
    func dashboard() async throws {
        let server = try server(Self.todos)
        try await shuttingDown(server) { () async throws in
            let page = try await HTTP.get(server, "/__admin/dashboard")
            #expect(page.text.contains(#"data-tab="data""#))
            let script = try await HTTP.get(server, "/__admin/dashboard/app.js")
            #expect(script.text.contains("stubserver/data"))
        }
    }
}

/// A stubs directory of a test's own under the temporary directory.
private struct StubsFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("data-store-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }

    func write(_ path: String, _ text: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
