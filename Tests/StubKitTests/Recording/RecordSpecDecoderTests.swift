import Foundation
import StubHTTP
import Testing

@testable import StubKit

@Suite("Recording spec: WireMock's JSON for /__admin/recordings/start and /snapshot")
struct RecordSpecDecoderTests {
    static let log = LogSink(.handler { _ in })

    func decode(_ json: String, requireTarget: Bool = true) throws(AdminError) -> RecordSpecDecoder {
        try RecordSpecDecoder(Array(json.utf8), requireTarget: requireTarget, log: Self.log)
    }

    func error(_ json: String, requireTarget: Bool = true) -> AdminError? {
        do {
            _ = try decode(json, requireTarget: requireTarget)
            return nil
        } catch {
            return error
        }
    }

    @Test("Every supported field, and WireMock's defaults: persist and repeatsAsScenarios true")
    func fields() throws {
        let full = try decode(
            """
            {"targetBaseUrl": "https://api.github.com/v3", "filters": {"urlPathPattern": "/users/.*", "method": "GET",
             "allowNonProxied": true}, "captureHeaders": {"Accept": {}, "X-Client": {"caseInsensitive": true}},
             "extractBodyCriteria": {"textSizeThreshold": "2048", "binarySizeThreshold": 10240},
             "repeatsAsScenarios": false, "persist": false, "outputFormat": "ids"}
            """)
        #expect(full.spec.target?.absoluteString == "https://api.github.com/v3")
        #expect(full.spec.filter?.method == .exactly("GET"))
        #expect(full.spec.filter?.url == .urlPathPattern("/users/.*"))
        #expect(full.allowNonProxied)
        #expect(full.spec.writer.captureHeaders == ["Accept", "X-Client"])
        #expect(full.spec.writer.caseInsensitiveHeaders == ["X-Client"])
        #expect(full.ids == nil)
        #expect(full.spec.writer.inlineBodies == BodyExtraction(textSizeThreshold: 2048, binarySizeThreshold: 10240))
        #expect(!full.spec.writer.recordsSequences)
        #expect(!full.spec.persist)
        #expect(full.outputFormat == .ids)

        let plain = try decode(#"{"targetBaseUrl": "http://127.0.0.1:9000"}"#)
        #expect(plain.spec.persist)
        #expect(plain.spec.writer.recordsSequences)
        #expect(plain.spec.writer.listsUnrecordedSecretHeaders)
        #expect(plain.spec.filter == nil)
        #expect(plain.spec.writer.inlineBodies == nil)
        #expect(try decode("", requireTarget: false).spec.persist, "snapshot takes an empty body")
    }

    @Test(
        "A wrong field is a 422 naming it",
        arguments: [
            (#"{}"#, "/targetBaseUrl", "targetBaseUrl is required"),
            (#"{"targetBaseUrl": "api.github.com"}"#, "/targetBaseUrl", "expected an http or https URL"),
            (#"{"targetBaseUrl": "http://h", "persits": false}"#, "/persits", "did you mean 'persist'?"),
            (#"{"targetBaseUrl": "http://h", "persist": "no"}"#, "/persist", "expected true or false"),
            (#"{"targetBaseUrl": "http://h", "filters": {"method": 3}}"#, "/filters/method", "filters: "),
            (
                #"{"targetBaseUrl": "http://h", "filters": {"ids": ["00000000-0000-4000-8000-00000000002a"]}}"#,
                "/filters/ids", "serve event ids filter a snapshot only"
            ),
            (#"{"targetBaseUrl": "http://h", "captureHeaders": ["Accept"]}"#, "/captureHeaders", "expected an object"),
            (
                #"{"targetBaseUrl": "http://h", "captureHeaders": {"Accept": true}}"#, "/captureHeaders/Accept",
                "expected an object such as {} or {\"caseInsensitive\": true}"
            ),
            (
                #"{"targetBaseUrl": "http://h", "captureHeaders": {"Accept": {"caseInsensitive": "yes"}}}"#,
                "/captureHeaders/Accept/caseInsensitive", "expected true or false"
            ),
            (
                #"{"targetBaseUrl": "http://h", "extractBodyCriteria": {"textSizeThreshold": "2 kb"}}"#,
                "/extractBodyCriteria/textSizeThreshold", "expected a byte count"
            ),
            (
                #"{"targetBaseUrl": "http://h", "outputFormat": "SOME"}"#, "/outputFormat",
                "expected \"FULL\" or \"IDS\""
            ),
            (#"[1]"#, "/", "expected an object")
        ])
    func errors(json: String, pointer: String, detail: String) throws {
        let error = try #require(self.error(json))
        #expect(error.status.code == 422)
        #expect(error.pointer == pointer)
        #expect(error.detail.contains(detail), "\(error.detail)")
    }

    @Test("captureHeaders: caseInsensitive true, false or null; names kept as written")
    func captureHeaders() throws {
        let decoded = try decode(
            """
            {"captureHeaders": {"Accept": {"caseInsensitive": true}, "X-A": {"caseInsensitive": false},
             "X-B": {"caseInsensitive": null}, "X-C": null}}
            """, requireTarget: false)
        #expect(decoded.spec.writer.captureHeaders == ["Accept", "X-A", "X-B", "X-C"])
        #expect(decoded.spec.writer.caseInsensitiveHeaders == ["Accept"])
    }

    @Test("snapshot's filters.ids: this server's serve event ids become sequence numbers; others name nothing")
    func ids() throws {
        let decoded = try decode(
            """
            {"filters": {"ids": ["00000000-0000-4000-8000-00000000002A", "12345678-1234-4234-8234-123456789abc"],
             "urlPath": "/a"}}
            """, requireTarget: false)
        #expect(decoded.ids == [42])
        #expect(decoded.spec.filter?.url == .urlPath("/a"), "ids are not part of the request pattern")
        #expect(try decode(#"{"filters": {"ids": []}}"#, requireTarget: false).ids == [])
        #expect(try decode(#"{"filters": {}}"#, requireTarget: false).ids == nil)
    }

    @Test(
        "A wrong filters.ids for snapshot is a 422 naming the item",
        arguments: [
            (
                #"{"filters": {"ids": "00000000-0000-4000-8000-00000000002a"}}"#, "/filters/ids",
                "expected an array of serve event ids"
            ),
            (
                #"{"filters": {"ids": ["00000000-0000-4000-8000-00000000002a", "42"]}}"#, "/filters/ids/1",
                "expected a serve event id"
            ),
            (#"{"filters": {"ids": [42]}}"#, "/filters/ids/0", "expected a serve event id")
        ])
    func idErrors(json: String, pointer: String, detail: String) throws {
        let error = try #require(self.error(json, requireTarget: false))
        #expect(error.status.code == 422)
        #expect(error.pointer == pointer)
        #expect(error.detail.contains(detail), "\(error.detail)")
    }
}
