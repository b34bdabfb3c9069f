import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// WireMock's persistent stubs through the admin API, over real sockets: a persistent stub's file is written when
/// it is added or changed and deleted when it is removed, so it survives resets and restarts; stub files that are
/// not persistent are never written or deleted.
@Suite("Admin API: persistent stubs")
struct AdminPersistenceTests {
    typealias Fixture = AdminAPITests.Fixture

    private static let persistentID = "44444444-4444-4444-8444-444444444444"

    private static func persistentStub(body: String = "kept", persistent: Bool = true) -> String {
        """
        {"id": "\(persistentID)", "request": {"method": "GET", "url": "/kept"}, "response": {"body": "\(body)"},
         "persistent": \(persistent)}
        """
    }

    /// The `.json` files of `mappings/`, by name, each parsed.
    private func files(_ fixture: Fixture) throws -> [String: [String: Any]] {
        let folder = fixture.root.appendingPathComponent("mappings")
        var found: [String: [String: Any]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".json") {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            found[name] = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        }
        return found
    }

    private func persistentFiles(_ fixture: Fixture) throws -> [[String: Any]] {
        try files(fixture).values.filter { $0["id"] as? String == Self.persistentID }
    }

    @Test("A persistent stub is written when added, keeps its place, and survives a reset")
    func createAndReset() async throws {
        let fixture = try Fixture()
        let older = fixture.server.stub(.get("/kept"), .text("older runtime stub"))
        #expect(try await fixture.call("POST", "/__admin/mappings", Self.persistentStub()).status == 201)
        let written = try persistentFiles(fixture)
        #expect(written.count == 1)
        #expect(written.first?["persistent"] as? Bool == true)
        #expect((written.first?["response"] as? [String: Any])?["body"] as? String == "kept")
        let listed = try await fixture.call("GET", "/__admin/mappings/\(Self.persistentID)").json()
        #expect(listed["persistent"] as? Bool == true)
        // Added after the runtime stub of the same priority: it answers, as the newer one.
        #expect(try await fixture.call("GET", "/kept").text == "kept")

        #expect(try await fixture.call("POST", "/__admin/reset").status == 200)
        #expect(!fixture.server.mappings.contains { $0.id == older.id })
        #expect(fixture.server.mappings.contains { $0.id == Self.persistentID && $0.persistent })
        #expect(try await fixture.call("GET", "/kept").text == "kept")
        #expect(try await fixture.call("POST", "/__admin/mappings/reset").status == 200)
        #expect(try await fixture.call("GET", "/kept").text == "kept")
    }

    @Test("Changing a persistent stub rewrites its file; changing it to not persistent deletes the file")
    func edit() async throws {
        let fixture = try Fixture()
        _ = try await fixture.call("POST", "/__admin/mappings", Self.persistentStub())
        let name = try #require(try files(fixture).first { $0.value["id"] as? String == Self.persistentID }?.key)
        let put = try await fixture.call(
            "PUT", "/__admin/mappings/\(Self.persistentID)", Self.persistentStub(body: "edited"))
        #expect(put.status == 200)
        let rewritten = try #require(try files(fixture)[name])
        #expect((rewritten["response"] as? [String: Any])?["body"] as? String == "edited")
        #expect(try persistentFiles(fixture).count == 1)

        let edit = try await fixture.call(
            "POST", "/__admin/mappings/edit", Self.persistentStub(body: "in memory", persistent: false))
        #expect(edit.status == 204)
        #expect(try persistentFiles(fixture).isEmpty)
        #expect(try await fixture.call("GET", "/kept").text == "in memory")
        _ = try await fixture.call("POST", "/__admin/reset")
        #expect(!fixture.server.mappings.contains { $0.id == Self.persistentID })
    }

    @Test("Removing a persistent stub deletes its file; a reset does not bring it back")
    func remove() async throws {
        let fixture = try Fixture()
        for removal in [
            ("DELETE", "/__admin/mappings/\(Self.persistentID)", nil),
            ("POST", "/__admin/mappings/remove", Self.persistentStub()),
            ("POST", "/__admin/mappings/remove-by-metadata", #"{"equalToJson": {"team": "ios"}}"#)
        ] as [(String, String, String?)] {
            let stub = Self.persistentStub().replacingOccurrences(
                of: #""persistent": true"#, with: #""persistent": true, "metadata": {"team": "ios"}"#)
            #expect(try await fixture.call("POST", "/__admin/mappings", stub).status == 201)
            #expect(try persistentFiles(fixture).count == 1)
            #expect(try await fixture.call(removal.0, removal.1, removal.2).status == 200, "\(removal.1)")
            #expect(try persistentFiles(fixture).isEmpty, "\(removal.1)")
            _ = try await fixture.call("POST", "/__admin/reset")
            #expect(!fixture.server.mappings.contains { $0.id == Self.persistentID }, "\(removal.1)")
        }
    }

    @Test("DELETE /__admin/mappings deletes the persistent stubs' files, never the other stub files")
    func removeAll() async throws {
        let fixture = try Fixture()
        _ = try await fixture.call("POST", "/__admin/mappings", Self.persistentStub())
        #expect(try await fixture.call("DELETE", "/__admin/mappings").status == 200)
        #expect(fixture.server.mappings.isEmpty)
        #expect(try files(fixture).keys.sorted() == ["a.json", "b.json"])
        _ = try await fixture.call("POST", "/__admin/reset")
        #expect(fixture.server.mappings.count == 2)
        #expect(try await fixture.call("GET", "/file-a").text == "A")
    }

    @Test("POST /__admin/mappings/save makes the runtime stubs persistent in place; removing one deletes its file")
    func save() async throws {
        let fixture = try Fixture()
        let first = fixture.server.stub(.get("/same"), .text("first"))
        let second = fixture.server.stub(.get("/same"), .text("second"))
        #expect(try await fixture.call("POST", "/__admin/mappings/save").status == 200)
        #expect(fixture.server.mappings.suffix(2).map(\.id) == [first.id, second.id])
        #expect(fixture.server.mappings.suffix(2).allSatisfy { $0.persistent })
        #expect(try await fixture.call("GET", "/same").text == "second")
        let saved = try files(fixture).filter { $0.value["id"] as? String == first.id }
        #expect(saved.count == 1)
        #expect(saved.first?.value["persistent"] as? Bool == true)
        #expect(try await fixture.call("DELETE", "/__admin/mappings/\(first.id)").status == 200)
        #expect(try files(fixture).filter { $0.value["id"] as? String == first.id }.isEmpty)
        // The stubs loaded from files were not made persistent: removing one keeps its file.
        #expect(try await fixture.call("DELETE", "/__admin/mappings/\(Fixture.fileStubID)").status == 200)
        #expect(try files(fixture)["b.json"] != nil)
    }

    @Test("After a restart, a persistent stub is loaded as one; a file of several stubs is never deleted")
    func restart() async throws {
        let fixture = try Fixture()
        _ = try await fixture.call("POST", "/__admin/mappings", Self.persistentStub())
        try Data(
            #"""
            {"mappings": [{"id": "55555555-5555-4555-8555-555555555555", "persistent": true,
                           "request": {"url": "/several/1"}, "response": {}},
                          {"request": {"url": "/several/2"}, "response": {}}]}
            """#.utf8
        ).write(to: fixture.root.appendingPathComponent("mappings/several.json"))

        let restarted = try StubServer(stubs: fixture.root, configuration: quiet)
        try restarted.start()
        try await shuttingDown(restarted) { () async throws in
            let kept = try #require(restarted.mappings.first { $0.id == Self.persistentID })
            #expect(kept.persistent)
            #expect(try await HTTP.send(restarted, "DELETE", "/__admin/mappings/\(Self.persistentID)").status == 200)
            #expect(try persistentFiles(fixture).isEmpty)
            let several = "55555555-5555-4555-8555-555555555555"
            // Its file holds another stub too, so it is never rewritten: the stub cannot be made persistent anew.
            let rewrite = try await HTTP.send(
                restarted, "PUT", "/__admin/mappings/\(several)",
                body: Data(#"{"persistent": true, "request": {"url": "/several/1"}, "response": {"body": "new"}}"#.utf8)
            )
            #expect(rewrite.status == 422)
            #expect(rewrite.text.contains("several.json [0], a file of several stubs"))
            #expect(try await HTTP.send(restarted, "DELETE", "/__admin/mappings/\(several)").status == 200)
            #expect(try files(fixture)["several.json"] != nil)
        }
    }

    @Test("A reload reads persistent stubs from their files: none twice")
    func reload() async throws {
        let fixture = try Fixture()
        _ = try await fixture.call("POST", "/__admin/mappings", Self.persistentStub())
        try fixture.server.reloadStubs()
        #expect(fixture.server.mappings.filter { $0.id == Self.persistentID }.count == 1)
        #expect(fixture.server.mappings.first { $0.id == Self.persistentID }?.persistent == true)
    }

    @Test("Imported persistent stubs are written; deleteAllNotInImport deletes the files of those it removes")
    func importing() async throws {
        let fixture = try Fixture()
        _ = try await fixture.call("POST", "/__admin/mappings", Self.persistentStub())
        let imported = try await fixture.call(
            "POST", "/__admin/mappings/import",
            """
            {"mappings": [{"id": "66666666-6666-4666-8666-666666666666", "persistent": true,
                           "request": {"url": "/imported"}, "response": {"body": "imported"}}],
             "importOptions": {"deleteAllNotInImport": true}}
            """)
        #expect(imported.status == 200)
        #expect(try persistentFiles(fixture).isEmpty)
        let written = try files(fixture).values.filter { $0["id"] as? String == "66666666-6666-4666-8666-666666666666" }
        #expect(written.count == 1)
        _ = try await fixture.call("POST", "/__admin/reset")
        #expect(try await fixture.call("GET", "/imported").text == "imported")
        #expect(try await fixture.call("GET", "/file-a").text == "A")  // not persistent: back from its file
    }

    @Test("Without a writable stubs directory, a persistent stub is refused with 422 and not added")
    func noStubsDirectory() async throws {
        let server = try StubServer(configuration: quiet)
        try server.start()
        try await shuttingDown(server) { () async throws in
            let refused = try await HTTP.send(
                server, "POST", "/__admin/mappings", body: Data(Self.persistentStub().utf8))
            #expect(refused.status == 422)
            #expect(refused.text.contains("no stubs directory"))
            #expect(server.mappings.isEmpty)
        }
    }

    private var quiet: StubServer.Configuration {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        configuration.log = LogSink(.handler { _ in })
        return configuration
    }
}
