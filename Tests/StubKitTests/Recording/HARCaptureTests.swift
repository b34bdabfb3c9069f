import Foundation
import StubHTTP
import Testing

@testable import StubKit

@Suite("HAR capture: reading HAR 1.2 as Chrome and Charles export it")
struct HARCaptureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/HAR")

    @Test("Chrome DevTools export: hosts, base64 content, a status-0 entry without content, postData")
    func chrome() throws {
        let capture = try HARCapture.load(
            Self.fixtures.appendingPathComponent("chrome-devtools.har"), displayPath: "chrome.har")
        #expect(capture.creator == "WebInspector 537.36")
        #expect(
            capture.entries.map(\.host) == [
                "api.github.com", "api.github.com", "avatars.githubusercontent.com",
                "api.github.com", "api.github.com", "api.github.com", "www.google-analytics.com"
            ])
        let first = capture.entries[0].exchange
        #expect(first.request.method == "GET")
        #expect(first.request.url == "https://api.github.com/users/octocat")
        #expect(first.response.status == 200)
        #expect(first.response.headers.first(name: "content-type") == "application/json; charset=utf-8")
        #expect(String(decoding: first.response.body, as: UTF8.self).hasPrefix(#"{"login":"octocat""#))
        let avatar = capture.entries[2].exchange.response.body
        #expect(avatar.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let graphQL = capture.entries[4].exchange.request
        #expect(graphQL.method == "POST")
        #expect(
            String(decoding: graphQL.body, as: UTF8.self) == #"{"query":"query { viewer { login } }","variables":{}}"#)
        #expect(capture.entries[5].exchange.response.status == 0)
        #expect(capture.entries[5].exchange.response.body.isEmpty)
        #expect(!capture.entries[5].isMissingContent)
    }

    @Test("Charles export: base64 JSON, an entry with no content member, a form post, text bodies kept exactly")
    func charles() throws {
        let capture = try HARCapture.load(Self.fixtures.appendingPathComponent("charles-proxy.har"))
        #expect(capture.creator == "Charles Proxy 4.6.4")
        #expect(capture.entries.count == 9)
        let torvalds = String(decoding: capture.entries[0].exchange.response.body, as: UTF8.self)
        #expect(torvalds.hasPrefix("{\n  \"login\": \"torvalds\""))
        #expect(capture.entries[2].exchange.response.body == Array("  MMM.           .MMM\n  Hi there!  \r\n".utf8))
        #expect(capture.entries[5].exchange.request.method == "HEAD")
        #expect(capture.entries[5].exchange.response.body.isEmpty)
        #expect(
            String(decoding: capture.entries[6].exchange.request.body, as: UTF8.self).hasPrefix(
                "client_id=abc&client_secret="))
        #expect(capture.entries[8].host == "example.com")
    }

    @Test(
        "Errors name the file, the entry and the field",
        arguments: [
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "/"}, "response": {"status": "200"}}]}}"#,
                #"x.har: log.entries[0].response.status: expected an integer, found "200""#
            ),
            (#"{"log": {"entries": {}}}"#, "x.har: log.entries: expected an array, found an object"),
            (#"{"log": {}}"#, "x.har: log: no 'entries' member"),
            (#"{"entries": []}"#, "x.har: not a HAR file: no 'log' member"),
            (#"[1]"#, "x.har: not a HAR file: expected an object with a 'log' member"),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "/"}, "response": {"status": 200}}, {"response": {}}]}}"#,
                "x.har: log.entries[1]: missing 'request'"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "/", "headers": [{"name": "A"}]}, "response": {"status": 200}}]}}"#,
                "x.har: log.entries[0].request.headers[0]: missing 'value'"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "/"}, "response": {"status": 200, "content": {"text": "%%%", "encoding": "base64"}}}]}}"#,
                #"x.har: log.entries[0].response.content.text: 'encoding' is "base64" but the text is not valid base64"#
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "/"}, "response": {"status": 200, "content": {"text": "x", "encoding": "gzip"}}}]}}"#,
                #"x.har: log.entries[0].response.content.encoding: unsupported encoding "gzip"; HAR 1.2 knows only "base64""#
            ),
            ("{\"log\": {\n  \"entries\": [,]}}", "x.har:2:15: not a HAR file: unexpected ',', expected a value")
        ])
    func errors(document: String, message: String) {
        do {
            _ = try HARCapture.parse(Array(document.utf8), file: "x.har")
            Issue.record("no error for \(document)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("A missing file is an error naming it")
    func missingFile() {
        #expect(throws: HARError.self) {
            try HARCapture.load(URL(fileURLWithPath: "/nonexistent/capture.har"), displayPath: "capture.har")
        }
        do {
            _ = try HARCapture.load(URL(fileURLWithPath: "/nonexistent/capture.har"), displayPath: "capture.har")
        } catch {
            #expect(error.description.hasPrefix("capture.har: cannot read file: "))
        }
    }

    @Test("A byte order mark, missing optional members, a body the export left out, Latin-1 text")
    func leniency() throws {
        let document = #"""
            {"log": {"entries": [
              {"request": {"method": "GET", "url": "http://user@LocalHost:8080/a?b=1"},
               "response": {"status": 200, "content": {"size": 120, "mimeType": "application/json"}}},
              {"request": {"method": "GET", "url": "https://[::1]:9000/l"},
               "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "text/plain; charset=ISO-8859-1"}],
                            "content": {"size": 4, "mimeType": "text/plain; charset=ISO-8859-1", "text": "café"}}}
            ]}}
            """#
        let capture = try HARCapture.parse([0xEF, 0xBB, 0xBF] + Array(document.utf8), file: "x.har")
        #expect(capture.creator == nil)
        #expect(capture.entries[0].host == "localhost")
        #expect(capture.entries[0].port == 8080)
        #expect(capture.entries[0].isMissingContent)
        #expect(capture.entries[0].exchange.response.headers.isEmpty)
        #expect(capture.entries[1].host == "[::1]")
        #expect(capture.entries[1].port == 9000)
        #expect(capture.entries[1].exchange.response.body == [0x63, 0x61, 0x66, 0xE9])
    }
}
