import Foundation
import StubHTTP
import Testing

@testable import StubKit

@Suite("Stub writer: names, bodies, loading back")
struct StubWriterTests {
    @Test("Names the mapping and body after the method and path, in the layout the loader reads")
    func namesAndLayout() throws {
        let folder = try WriterFolder()
        let summary = try folder.write([.json("/users/octocat", body: #"{"login":"octocat","id":583231}"#)])
        #expect(folder.files() == ["__files/get-users-octocat.json", "mappings/get-users-octocat.json"])
        #expect(summary.stubs.map(\.mappingFile) == ["mappings/get-users-octocat.json"])
        #expect(summary.stubs.map(\.bodyFile) == ["__files/get-users-octocat.json"])
        let mapping = try #require(try folder.load().first)
        #expect(mapping.request.method == .exactly("GET"))
        #expect(mapping.request.url == .url("/users/octocat"))
        #expect(mapping.response.status == 200)
        #expect(mapping.response.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
        guard case .file(let name, _) = mapping.response.body else { Issue.record("no bodyFileName"); return }
        #expect(name == "get-users-octocat.json")
        #expect(mapping.matches("GET", "/users/octocat"))
        #expect(!mapping.matches("GET", "/users/octocat?page=2"))
    }

    @Test("Names: / is get-root, percent escapes and punctuation become dashes, long paths are cut at 80 characters")
    func stems() {
        #expect(StubWriter.fileStem(method: "GET", path: "/") == "get-root")
        #expect(StubWriter.fileStem(method: "POST", path: "/repos/o/r/issues") == "post-repos-o-r-issues")
        #expect(StubWriter.fileStem(method: "GET", path: "/search/caf%C3%A9/v1.2") == "get-search-caf-v1-2")
        #expect(StubWriter.fileStem(method: "GET", path: "/" + String(repeating: "abc/", count: 40)).count <= 80)
        #expect(StubWriter.fileStem(method: "GET", path: "/" + String(repeating: "abc/", count: 40)).last != "-")
    }

    @Test("JSON bodies are pretty-printed with members, numbers and strings as received")
    func prettyJSON() throws {
        let folder = try WriterFolder()
        let body = #"{"login":"octocat","score":1.50,"bio":"caf\u00e9 \"q\"","tags":[1,2]}"#
        _ = try folder.write([.json("/users/octocat", body: body)])
        let written = try folder.text("__files/get-users-octocat.json")
        #expect(
            written == """
                {
                  "login": "octocat",
                  "score": 1.50,
                  "bio": "café \\"q\\"",
                  "tags": [
                    1,
                    2
                  ]
                }
                """)
        #expect(try JSONParser.parse(written) == JSONParser.parse(body))
    }

    @Test("asReceived keeps JSON byte for byte; text and binary bodies are always byte for byte")
    func byteForByte() throws {
        let folder = try WriterFolder()
        let json = #"{"a" : 1}"#
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE]
        let text = "line one\r\nline two  \n"
        _ = try folder.write(
            [
                .json("/raw", body: json),
                RecordedExchange(
                    request: .init(method: "GET", url: "/avatar"),
                    response: .init(status: 200, headers: ["Content-Type": "image/png"], body: png)),
                RecordedExchange(
                    request: .init(method: "GET", url: "/notes"),
                    response: .init(status: 200, headers: ["Content-Type": "text/plain"], body: Array(text.utf8))),
                RecordedExchange(
                    request: .init(method: "GET", url: "/blob"),
                    response: .init(status: 200, body: [0, 1, 2, 0xFF]))
            ], options: .init(jsonBodies: .asReceived))
        #expect(try folder.text("__files/get-raw.json") == json)
        #expect(try folder.bytes("__files/get-avatar.png") == png)
        #expect(try folder.bytes("__files/get-notes.txt") == Array(text.utf8))
        #expect(try folder.bytes("__files/get-blob.bin") == [0, 1, 2, 0xFF])
        let loaded = try folder.load()
        #expect(loaded.compactMap(\.bodyBytes).contains(png))
    }

    @Test("Bytes that are not text under a text type are a .bin file; two stubs of one method and path get two names")
    func binaryUnderTextTypeAndDistinctNames() throws {
        let folder = try WriterFolder()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE]
        _ = try folder.write([
            RecordedExchange(
                request: .init(method: "GET", url: "/mislabelled"),
                response: .init(status: 200, headers: ["Content-Type": "text/plain"], body: png)),
            .json("/users?page=1", body: #"{"page":1}"#),
            .json("/users?page=2", body: #"{"page":2}"#)
        ])
        #expect(try folder.bytes("__files/get-mislabelled.bin") == png)
        let names = try folder.load().compactMap(\.name).filter { $0.hasPrefix("GET /users") }.sorted()
        #expect(names == ["GET /users", "GET /users (get-users-2)"])
    }

    @Test("JSON that does not parse is written as received")
    func brokenJSON() throws {
        let folder = try WriterFolder()
        _ = try folder.write([.json("/broken", body: #"{"a": 1,"#)])
        #expect(try folder.text("__files/get-broken.json") == #"{"a": 1,"#)
    }

    @Test("No body: no body file; framing, Date and Content-Encoding headers are not replayed")
    func headersAndEmptyBody() throws {
        let folder = try WriterFolder()
        let summary = try folder.write([
            RecordedExchange(
                request: .init(method: "DELETE", url: "/repos/o/r"),
                response: .init(
                    status: 204,
                    headers: [
                        "Date": "Tue, 01 Dec 2026 03:00:00 GMT", "Content-Length": "0", "Connection": "keep-alive",
                        "Content-Encoding": "gzip", ":status": "204", "X-GitHub-Request-Id": "ABC", "ETag": "\"e\""
                    ]))
        ])
        #expect(folder.files() == ["mappings/delete-repos-o-r.json"])
        #expect(summary.stubs.first?.bodyFile == nil)
        let mapping = try #require(try folder.load().first)
        #expect(mapping.response.status == 204)
        #expect(mapping.response.body == .none)
        #expect(mapping.response.headers.map(\.name) == ["X-GitHub-Request-Id", "ETag"])
    }

    @Test("Absolute URLs and fragments: only path and query are matched")
    func absoluteURL() throws {
        let folder = try WriterFolder()
        _ = try folder.write([.json("https://api.github.com/search/users?q=octo#top", body: "[]")])
        let mapping = try #require(try folder.load().first)
        #expect(mapping.request.url == .url("/search/users?q=octo"))
    }

    @Test("Status 0 and out-of-range statuses are skipped and listed")
    func skipped() throws {
        let folder = try WriterFolder()
        let summary = try folder.write([
            RecordedExchange(request: .init(method: "GET", url: "/favicon.ico"), response: .init(status: 0)),
            RecordedExchange(request: .init(method: "GET", url: "/odd"), response: .init(status: 999)),
            .json("/ok", body: "{}")
        ])
        #expect(summary.stubs.count == 1)
        #expect(summary.skipped.map(\.request) == ["GET /favicon.ico", "GET /odd"])
        #expect(summary.description.contains("GET /favicon.ico: status 0 (the request got no response)"))
    }
}
