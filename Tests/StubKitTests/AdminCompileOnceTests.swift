import StubHTTP
import StubMatching
import StubTemplating
import Testing

@testable import StubKit

/// A stub given to the admin API is compiled once: the matchers and templates its decoding checked are what the
/// route table and the prepared response use.
@Suite("Admin API stubs compiled once")
struct AdminCompileOnceTests {
    private static func admin(_ store: StubStore) -> AdminAPI {
        let journal = RequestJournal()
        return AdminAPI(
            store: store, journal: journal, bodyFiles: nil, stubsDirectory: nil,
            stubFiles: StubFiles(directory: nil, options: StubsLoadOptions(), openAPIStubs: []), state: AdminState(),
            log: LogSink(.handler { _ in }),
            recordings: Recordings(recorder: Recorder(), store: store, journal: journal, stubsDirectory: nil),
            isolatedServers: nil, hosts: ListeningHosts(), streams: StreamRegistry(), webSockets: WebSocketRegistry(),
            pageShowsJournal: false)
    }

    private static func stub(_ id: String, _ name: String) -> String {
        #"{"id": "\#(id)", "request": {"urlPathPattern": "/\#(name)/[0-9]+", "#
            + #""headers": {"X": {"matches": "\#(name)+"}}}, "#
            + #""response": {"body": "\#(name) {{request.path}}", "transformers": ["response-template"]}}"#
    }

    @Test("POST, PUT and import of a stub compile each regex and parse each template once")
    func postPutAndImportCompileOnce() throws {
        let store = StubStore(fileMappings: [])
        let admin = Self.admin(store)
        let regexes = CompileCounter()
        let templates = CompileCounter()
        try CompiledRegex.$compilations.withValue(regexes) {
            try Template.$parses.withValue(templates) {
                _ = try admin.createMapping(Array(Self.stub("p", "posted").utf8))
                _ = try admin.updateMapping("p", Array(Self.stub("p", "put").utf8))
                let imported = #"{"mappings": [\#(Self.stub("i", "imported"))]}"#
                _ = try admin.importMappings(Array(imported.utf8))
            }
        }
        #expect(
            regexes.patterns.sorted() == [
                "/imported/[0-9]+", "/posted/[0-9]+", "/put/[0-9]+", "imported+", "posted+", "put+"
            ])
        #expect(
            templates.patterns.sorted() == [
                "imported {{request.path}}", "posted {{request.path}}", "put {{request.path}}"
            ])
        let request = StubHTTPRequest(method: .get, target: "/put/1", headers: ["X": "putt"])
        #expect(store.snapshot.table.match(request)?.mapping.id == "p")
        #expect(store.snapshot.mappings.count == 2)
    }
}
