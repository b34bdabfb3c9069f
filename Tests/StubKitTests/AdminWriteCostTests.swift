import Foundation
import StubHTTP
import StubServerTestSupport
import StubTestSupport
import XCTest

@testable import StubKit
@testable import StubMatching

/// Adding one stub compiles one pattern, whatever the stub count, and an import of
/// many mappings builds one route table.
final class AdminWriteCostTests: XCTestCase {
    private func mapping(_ i: Int) -> StubMapping {
        StubMapping(
            id: "m\(i)", request: RequestPattern.get("/items/\(i)").withHeader("X-Key", .matches("k[0-9]+")),
            response: .text("\(i)"))
    }

    func testAddingAStubReusesEveryOtherStubsCompiledPattern() {
        let store = StubStore(fileMappings: (0..<300).map(mapping))
        let before = store.snapshot.table
        store.add(mapping(300))
        let after = store.snapshot.table
        XCTAssertEqual(after.count, 301)
        let reused = (0..<300).filter { after.patterns[$0] === before.patterns[$0] }.count
        XCTAssertEqual(reused, 300)
        XCTAssertEqual(
            after.match(HTTPRequest(method: .get, target: "/items/300", headers: ["X-Key": "k1"]))?.mapping.id, "m300")

        // A changed stub is compiled anew.
        var changed = mapping(5)
        changed.request = RequestPattern.get("/changed")
        store.replace(id: "m5", with: changed)
        XCTAssertFalse(store.snapshot.table.patterns[5] === after.patterns[5])
        XCTAssertEqual(store.snapshot.table.match(HTTPRequest(method: .get, target: "/changed"))?.mapping.id, "m5")
    }

    func testAddingAStubIndexesOnlyTheStubsAddedSinceTheLastFullBuild() {
        let store = StubStore(fileMappings: (0..<3000).map(mapping))
        let full = store.snapshot.table
        for i in 3000..<3010 { store.add(mapping(i)) }
        let table = store.snapshot.table
        XCTAssertTrue(table.base === full.base, "the 3,000 stubs' index is shared, not rebuilt")
        XCTAssertEqual(table.recent?.range, 3000..<3010)
    }

    /// Removing or replacing one stub reuses every other stub's compiled pattern and prepared response,
    /// before and after it; a stub whose id is repeated, or that a replacement shares an id with, is
    /// compared instead, so reuse never takes one stub's parts for another's.
    func testRemovingOrReplacingAStubReusesEveryOtherStub() {
        let store = StubStore(fileMappings: (0..<300).map(mapping))
        let before = store.snapshot
        XCTAssertTrue(store.remove(id: "m0"))
        let removed = store.snapshot
        XCTAssertEqual(removed.mappings.count, 299)
        XCTAssertEqual((0..<299).filter { removed.table.patterns[$0] === before.table.patterns[$0 + 1] }.count, 299)
        XCTAssertEqual((0..<299).filter { removed.responses[$0] === before.responses[$0 + 1] }.count, 299)

        var changed = mapping(150)
        changed.request = RequestPattern.get("/changed")
        store.replace(id: "m150", with: changed)
        let replaced = store.snapshot
        let others = (0..<299).filter { $0 != 149 }
        XCTAssertEqual(others.filter { replaced.table.patterns[$0] === removed.table.patterns[$0] }.count, 298)
        XCTAssertFalse(replaced.table.patterns[149] === removed.table.patterns[149])
        XCTAssertEqual(replaced.table.match(HTTPRequest(method: .get, target: "/changed"))?.mapping.id, "m150")
        XCTAssertNil(replaced.table.match(HTTPRequest(method: .get, target: "/items/150", headers: ["X-Key": "k1"])))

        // A replacement that carries another stub's id: the stub it replaces is built from the replacement,
        // not reused from the stub that already had that id.
        var impostor = StubMapping(id: "m10", request: RequestPattern.get("/impostor"), response: .text("impostor"))
        impostor.priority = 1
        store.replace(id: "m20", with: impostor)
        let table = store.snapshot.table
        let impostorIndex = table.match(HTTPRequest(method: .get, target: "/impostor"))?.index
        XCTAssertEqual(
            impostorIndex.map { String(decoding: store.snapshot.responses[$0].prepared.response.body, as: UTF8.self) },
            "impostor")
        XCTAssertEqual(
            table.match(HTTPRequest(method: .get, target: "/items/10", headers: ["X-Key": "k1"]))?.mapping.id, "m10")
        XCTAssertNil(table.match(HTTPRequest(method: .get, target: "/items/20", headers: ["X-Key": "k1"])))
        XCTAssertEqual(store.snapshot.responses.count, table.count)

        // Stubs sharing an id: a removal elsewhere still answers each as itself.
        let twins = StubStore(fileMappings: [
            StubMapping(id: "twin", request: RequestPattern.get("/one"), response: .text("one")),
            StubMapping(id: "gone", request: RequestPattern.get("/gone"), response: .text("gone")),
            StubMapping(id: "twin", request: RequestPattern.get("/two"), response: .text("two"))
        ])
        twins.remove(id: "gone")
        let pair = twins.snapshot
        for (path, body) in [("/one", "one"), ("/two", "two")] {
            let index = pair.table.match(HTTPRequest(method: .get, target: path))?.index
            XCTAssertEqual(
                index.map { String(decoding: pair.responses[$0].prepared.response.body, as: UTF8.self) }, body)
        }
    }

    /// Stubs added one at a time (indexed apart from the older ones) answer as a table built at once would.
    func testStubsAddedOneAtATimeMatchAsAFullBuildDoes() {
        func stub(_ i: Int) -> StubMapping {
            StubMapping(
                id: "p\(i)", priority: [5, 1, 9][i % 3],
                request: i % 4 == 0 ? RequestPattern.get(urlPattern: "/a/.*") : RequestPattern.get("/a/\(i % 7)"),
                response: .text("\(i)"))
        }
        let store = StubStore(fileMappings: (0..<40).map(stub))
        let requests = (0..<8).map { HTTPRequest(method: .get, target: "/a/\($0)") }
        for i in 40..<120 {
            store.add(stub(i))
            let table = store.snapshot.table
            let reference = RouteTable(table.mappings)
            for request in requests {
                XCTAssertEqual(
                    table.match(request)?.index, reference.match(request)?.index,
                    "after \(i + 1) stubs: \(request.target)")
            }
        }
        XCTAssertNotNil(store.snapshot.table.recent, "some stubs were indexed apart")
    }

    func testRemovingAStubSharesTheIndexInsteadOfRebuildingIt() {
        let store = StubStore(fileMappings: (0..<3000).map(mapping))
        let full = store.snapshot.table
        XCTAssertTrue(store.remove(id: "m1500"))
        let table = store.snapshot.table
        XCTAssertTrue(table.base === full.base, "the 2,999 stubs' index is shared, not rebuilt")
        XCTAssertEqual(table.frame.removed, [1500])
        XCTAssertNil(table.match(HTTPRequest(method: .get, target: "/items/1500", headers: ["X-Key": "k1"])))
        let next = table.match(HTTPRequest(method: .get, target: "/items/1501", headers: ["X-Key": "k1"]))
        XCTAssertEqual(next?.mapping.id, "m1501")
        XCTAssertEqual(next?.index, 1500)
        XCTAssertEqual(
            next.map { String(decoding: store.snapshot.responses[$0.index].prepared.response.body, as: UTF8.self) },
            "1501")

        // Appended after a removal: indexed apart, at the right mapping index.
        store.add(mapping(3000))
        XCTAssertTrue(store.snapshot.table.base === full.base)
        XCTAssertEqual(
            store.snapshot.table.match(HTTPRequest(method: .get, target: "/items/3000", headers: ["X-Key": "k1"]))?
                .index, 2999)
    }

    func testReplacingAStubSharesTheIndexInsteadOfRebuildingIt() {
        let store = StubStore(fileMappings: (0..<3000).map(mapping))
        let full = store.snapshot.table
        var changed = mapping(700)
        changed.request = RequestPattern.get("/changed")
        XCTAssertTrue(store.replace(id: "m700", with: changed))
        let table = store.snapshot.table
        XCTAssertTrue(table.base === full.base, "the 3,000 stubs' index is shared, not rebuilt")
        XCTAssertEqual(table.frame.replaced, [700])
        XCTAssertNotNil(table.replacements)
        XCTAssertEqual(table.match(HTTPRequest(method: .get, target: "/changed"))?.index, 700)
        XCTAssertNil(table.match(HTTPRequest(method: .get, target: "/items/700", headers: ["X-Key": "k1"])))

        // Removing the replaced stub: neither version answers, the stubs after it move down one.
        XCTAssertTrue(store.remove(id: "m700"))
        let removed = store.snapshot.table
        XCTAssertTrue(removed.base === full.base)
        XCTAssertNil(removed.match(HTTPRequest(method: .get, target: "/changed")))
        XCTAssertEqual(
            removed.match(HTTPRequest(method: .get, target: "/items/701", headers: ["X-Key": "k1"]))?.index, 700)
    }

    /// Past about √n stubs removed or replaced since the last full build, the next change builds the index anew.
    func testManyRemovalsEndInAFullBuild() {
        let store = StubStore(fileMappings: (0..<3000).map(mapping))
        let full = store.snapshot.table
        let limit = RouteTable.recentLimit(total: 3000)
        for i in 0..<limit { XCTAssertTrue(store.remove(id: "m\(i * 2)")) }
        XCTAssertTrue(store.snapshot.table.base === full.base)
        XCTAssertTrue(store.remove(id: "m\(limit * 2)"))
        let rebuilt = store.snapshot.table
        XCTAssertFalse(rebuilt.base === full.base)
        XCTAssertTrue(rebuilt.frame.isIdentity)
        XCTAssertEqual(
            rebuilt.match(HTTPRequest(method: .get, target: "/items/2999", headers: ["X-Key": "k1"]))?.index,
            2999 - limit - 1)
    }

    /// Stubs appended, removed and replaced in a seeded random order (indexes shared, tombstones, side
    /// indexes, full builds) answer every request as a table built at once from the same stubs does, and
    /// the snapshot's responses stay aligned with its stubs.
    func testMixedChangesMatchAsAFullBuildDoes() {
        var random = SplitMix64(seed: 18_9)
        var serial = 0
        func stub(id: String? = nil) -> StubMapping {
            serial += 1
            let k = Int.random(in: 0..<8, using: &random)
            let url: URLMatcher? =
                switch Int.random(in: 0..<7, using: &random) {
                case 0: .urlPath("/a/\(k)")
                case 1: .url("/b/\(k)")
                case 2: .urlPathPattern("/a/[0-\(k)]")
                case 3: .urlPathTemplate("/b/{id}")
                case 4: .urlPattern(".*/[\(k)-7]")
                case 5: .urlPathTemplate("/a/\(k)")
                default: k == 0 ? .urlPattern("/a/[") : nil  // sometimes a pattern that does not compile
                }
            let method: MethodMatcher = [.any, .exactly("GET"), .exactly("GET"), .exactly("POST")].randomElement(
                using: &random)!
            var request = RequestPattern(method: method, url: url)
            if Int.random(in: 0..<5, using: &random) == 0 {
                request.headers = [NamedMatcher("X-Key", .single(.matches("k[0-4]")))]
            }
            var stub = StubMapping(
                id: id ?? "s\(serial)", priority: [1, 3, 5, 5, 5, 9].randomElement(using: &random)!,
                request: request, response: .text("body \(serial)"))
            if Int.random(in: 0..<10, using: &random) == 0 { stub.thenResponses = [.text("then \(serial)")] }
            return stub
        }
        var requests: [HTTPRequest] = []
        for method in [HTTPMethod.get, .post, .put] {
            for path in (0..<8).flatMap({ ["/a/\($0)", "/b/\($0)", "/c/\($0)"] }) {
                requests.append(HTTPRequest(method: method, target: path))
                requests.append(HTTPRequest(method: method, target: path, headers: ["X-Key": "k2"]))
            }
        }
        func body(_ response: StubResponse) -> String {
            String(decoding: response.prepared.response.body, as: UTF8.self)
        }

        // What the store should hold, changed as a plain array.
        var model = (0..<200).map { _ in stub() }
        let store = StubStore(fileMappings: model)
        var full = store.snapshot.table.base
        var shared = 0, builds = 0
        for step in 0..<300 {
            let ids = store.mappings.map(\.id)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<3:
                let added = stub()
                model.append(added)
                store.add(added)
            case 3..<6:
                let id = ids.randomElement(using: &random)!
                model.removeAll { $0.id == id }
                XCTAssertTrue(store.remove(id: id))
            case 6..<8:
                let id = ids.randomElement(using: &random)!, new = stub(id: id)
                model[model.firstIndex { $0.id == id }!] = new
                XCTAssertTrue(store.replace(id: id, with: new))
            case 8:
                // The same request with another response: the index entry stays as it is.
                var edited = store.mappings.randomElement(using: &random)!
                serial += 1
                edited.response = .text("edited \(serial)")
                model[model.firstIndex { $0.id == edited.id }!] = edited
                XCTAssertTrue(store.replace(id: edited.id, with: edited))
            default:
                let gone = Set((0..<3).map { _ in ids.randomElement(using: &random)! })
                model.removeAll { gone.contains($0.id) }
                XCTAssertEqual(store.remove(ids: gone), gone.count)
            }
            let snapshot = store.snapshot, table = snapshot.table
            if table.base === full { shared += 1 } else { builds += 1; full = table.base }
            XCTAssertEqual(store.mappings, model, "step \(step): the stubs, in order")
            let reference = RouteTable(model)
            XCTAssertEqual(table.compileErrors.map(\.index), reference.compileErrors.map(\.index))
            for request in requests {
                let found = table.match(request), expected = reference.match(request)
                XCTAssertEqual(found?.index, expected?.index, "step \(step): \(request.method) \(request.target)")
                XCTAssertEqual(found?.pathParameters, expected?.pathParameters, "step \(step): \(request.target)")
                let odd = table.match(request) { $0 % 2 == 1 }?.index
                XCTAssertEqual(
                    odd, reference.match(request) { $0 % 2 == 1 }?.index, "step \(step), odd stubs: \(request.target)")
            }
            if step % 20 == 0 {
                let request = requests[step % requests.count]
                XCTAssertEqual(
                    table.nearMisses(for: request).map(\.index), reference.nearMisses(for: request).map(\.index))
            }
            XCTAssertEqual(snapshot.responses.count, table.count)
            for (index, mapping) in table.mappings.enumerated() where step % 10 == 0 {
                XCTAssertEqual(
                    body(snapshot.responses[index]), body(StubResponse(mapping)), "step \(step): stub \(index)")
                XCTAssertEqual(
                    snapshot.response(at: index, use: 1).prepared.response.body,
                    (mapping.thenResponses.first.map { StubResponse($0, stubID: mapping.id, stubName: mapping.name) }
                        ?? snapshot.responses[index]).prepared.response.body, "step \(step): stub \(index)")
            }
            XCTAssertEqual(snapshot.isStateful, table.mappings.contains(where: \.isStateful))
        }
        XCTAssertGreaterThan(shared, 250, "most changes shared the index")
        XCTAssertGreaterThan(builds, 0, "some changes built it anew")
        XCTAssertFalse(store.snapshot.table.compileErrors.isEmpty, "some patterns did not compile")
    }

    func testRemovingElementsByPositionKeepsTheOthersInOrder() {
        var numbers = Array(0..<10)
        numbers.remove(at: [0, 3, 4, 9])
        XCTAssertEqual(numbers, [1, 2, 5, 6, 7, 8])
        numbers.remove(at: [])
        XCTAssertEqual(numbers, [1, 2, 5, 6, 7, 8])
        XCTAssertEqual(Array(0..<10).removing([0, 3, 4, 9]), [1, 2, 5, 6, 7, 8])
        XCTAssertEqual(Array(0..<3).removing([]), [0, 1, 2])
    }

    /// The raw response to a JSON `POST path` on a connection of its own.
    private func post(_ server: StubServer, _ path: String, _ body: [UInt8]) throws -> String {
        try LoopbackClient.request(
            port: server.port, "POST", path, headers: ["Content-Type: application/json"], body: body,
            timeoutSeconds: 60
        ).whole
    }

    func testAnImportBuildsOneRouteTable() throws {
        let server = try startQuietServer()
        defer { server.stop() }
        let items = (0..<300).map {
            #"{"id": "i\#($0)", "request": {"method": "GET", "url": "/i/\#($0)"}, "response": {"status": 200}}"#
        }
        let body = Array(#"{"mappings": [\#(items.joined(separator: ","))]}"#.utf8)
        let builds = server.store.snapshotBuilds
        let text = try post(server, "/__admin/mappings/import", body)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 "), text)
        XCTAssertEqual(server.store.snapshotBuilds - builds, 1)
        XCTAssertEqual(server.mappings.count, 300)
        XCTAssertEqual(
            server.store.snapshot.table.match(HTTPRequest(method: .get, target: "/i/299"))?.mapping.id, "i299")
    }

    /// `remove-by-metadata` removing 300 of 301 stubs: one route table, not one per stub removed (O(n²)).
    func testRemovingByMetadataBuildsOneRouteTable() throws {
        let server = try startQuietServer()
        defer { server.stop() }
        for index in 0..<300 {
            _ = try server.stub(
                mappingJSON:
                    #"{"id": "m\#(index)", "request": {"url": "/m/\#(index)"}, "response": {"status": 200}, "metadata": {"team": "ios"}}"#
            )
        }
        server.stub(.get("/kept"), .text("kept"))
        let body = Array(#"{"matchesJsonPath": {"expression": "$.team", "equalTo": "ios"}}"#.utf8)
        let builds = server.store.snapshotBuilds
        let text = try post(server, "/__admin/mappings/remove-by-metadata", body)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 "), text)
        XCTAssertEqual(server.store.snapshotBuilds - builds, 1)
        XCTAssertEqual(server.mappings.map(\.request.url), [.urlPath("/kept")])
    }
}
