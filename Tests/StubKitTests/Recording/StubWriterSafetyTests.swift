import Foundation
import StubHTTP
import Testing

@testable import StubKit

@Suite("Stub writer: collisions, never overwriting, duplicates")
struct StubWriterSafetyTests {
    @Test("Two stubs with the same path get -2; names are unique across mappings/ and __files/")
    func collisions() throws {
        let folder = try WriterFolder()
        let summary = try folder.write([
            .json("/search/users?q=octocat", body: "[1]"),
            .json("/search/users?q=torvalds", body: "[2]")
        ])
        #expect(
            summary.stubs.map(\.mappingFile) == ["mappings/get-search-users.json", "mappings/get-search-users-2.json"])
        #expect(try folder.text("__files/get-search-users-2.json").contains("2"))
        let loaded = try folder.load()
        #expect(loaded.count == 2)
        #expect(loaded.filter { $0.matches("GET", "/search/users?q=torvalds") }.count == 1)
    }

    @Test("A user's existing files are never overwritten: a new name is taken, theirs stay byte for byte")
    func neverOverwrites() throws {
        let folder = try WriterFolder()
        let userMapping = #"{"request": {"method": "GET", "url": "/mine"}, "response": {"status": 418}}"#
        try folder.put("mappings/get-users-octocat.json", userMapping)
        try folder.put("__files/get-users-octocat-2.json", "user body")
        let summary = try folder.write([.json("/users/octocat", body: #"{"login":"octocat"}"#)])
        #expect(summary.stubs.map(\.mappingFile) == ["mappings/get-users-octocat-3.json"])
        #expect(try folder.text("mappings/get-users-octocat.json") == userMapping)
        #expect(try folder.text("__files/get-users-octocat-2.json") == "user body")
        #expect(try folder.text("__files/get-users-octocat-3.json").contains("octocat"))
    }

    @Test("Writing the same capture twice keeps the first files and adds suffixed ones")
    func writingTwice() throws {
        let folder = try WriterFolder()
        _ = try folder.write([.json("/users/octocat", body: #"{"v":1}"#)])
        let first = try folder.text("mappings/get-users-octocat.json")
        _ = try folder.write([.json("/users/octocat", body: #"{"v":2}"#)])
        #expect(try folder.text("mappings/get-users-octocat.json") == first)
        #expect(try folder.text("__files/get-users-octocat.json").contains("1"))
        #expect(try folder.text("__files/get-users-octocat-2.json").contains("2"))
    }

    @Test("A dangling symlink's name counts as taken")
    func danglingSymlink() throws {
        let folder = try WriterFolder()
        try FileManager.default.createDirectory(
            at: folder.root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.root.path + "/mappings/get-a.json", withDestinationPath: "/nonexistent/x")
        let summary = try folder.write([.json("/a", body: "{}")])
        #expect(summary.stubs.map(\.mappingFile) == ["mappings/get-a-2.json"])
    }

    @Test("Identical requests are merged, the first response kept; differing responses are reported")
    func duplicates() throws {
        let folder = try WriterFolder()
        let summary = try folder.write([
            .json("/users/octocat", body: #"{"v":1}"#),
            .json("/users/octocat", body: #"{"v":1}"#),
            .json("/users/octocat", body: #"{"v":2}"#),
            .json("/users/octocat?page=2", body: "[]")
        ])
        #expect(summary.stubs.count == 2)
        #expect(summary.stubs.first?.duplicates == 2)
        #expect(summary.stubs.first?.duplicatesDiffered == true)
        #expect(summary.duplicateCount == 2)
        #expect(try folder.text("__files/get-users-octocat.json").contains("1"))
        #expect(summary.description.contains("(+2 duplicates; their responses differed, kept the first)"))
    }

    @Test(
        "POSTs with different bodies are different stubs matched on the body; the same JSON in other spacing is a duplicate"
    )
    func requestBodies() throws {
        let folder = try WriterFolder()
        let summary = try folder.write([
            .json(
                "/graphql", method: "POST", body: #"{"data":1}"#, requestHeaders: ["Content-Type": "application/json"],
                requestBody: #"{"query":"a"}"#),
            .json(
                "/graphql", method: "POST", body: #"{"data":2}"#, requestHeaders: ["Content-Type": "application/json"],
                requestBody: #"{"query":"b"}"#),
            .json(
                "/graphql", method: "POST", body: #"{"data":1}"#, requestHeaders: ["Content-Type": "application/json"],
                requestBody: #"{ "query" : "a" }"#),
            .json(
                "/form", method: "POST", body: "{}",
                requestHeaders: ["Content-Type": "application/x-www-form-urlencoded"],
                requestBody: "name=octo&city=sf")
        ])
        #expect(summary.stubs.count == 3)
        #expect(summary.stubs.first?.duplicates == 1)
        let loaded = try folder.load()
        let graphQL = loaded.filter { $0.matches("POST", "/graphql", body: #"{"query": "b"}"#) }
        #expect(graphQL.count == 1)
        #expect(graphQL.first?.bodyBytes.map { String(decoding: $0, as: UTF8.self) }?.contains("2") == true)
        #expect(loaded.filter { $0.matches("POST", "/form", body: "name=octo&city=sf") }.count == 1)
        #expect(loaded.filter { $0.matches("POST", "/form", body: "name=other") }.isEmpty)
    }

    @Test("Captured request headers are matched; without captureHeaders, headers are not")
    func capturedHeaders() throws {
        let folder = try WriterFolder()
        _ = try folder.write(
            [.json("/a", body: "{}", requestHeaders: ["Accept": "application/vnd.github+json"])],
            options: .init(captureHeaders: ["Accept"]))
        let mapping = try #require(try folder.load().first)
        #expect(mapping.matches("GET", "/a", headers: ["Accept": "application/vnd.github+json"]))
        #expect(!mapping.matches("GET", "/a", headers: ["Accept": "text/html"]))
        let plain = try WriterFolder()
        _ = try plain.write([.json("/a", body: "{}", requestHeaders: ["Accept": "application/vnd.github+json"])])
        #expect(try #require(try plain.load().first).matches("GET", "/a", headers: ["Accept": "text/html"]))
    }
}

@Suite("Stub writer: recorded sequences")
struct StubWriterSequenceTests {
    @Test("With recordsSequences, changing responses become a scenario: Started, 2, 3, the last repeating")
    func sequences() throws {
        let folder = try WriterFolder()
        let summary = try folder.write(
            [
                .json("/jobs/1", body: #"{"state":"queued"}"#),
                .json("/jobs/1", body: #"{"state":"queued"}"#),
                .json("/jobs/1", body: #"{"state":"running"}"#),
                .json("/jobs/1", status: 410, body: #"{"state":"gone"}"#),
                .json("/other", body: "{}"),
                .json("/other", body: "{}")
            ], options: .init(recordsSequences: true))
        #expect(
            summary.stubs.map(\.mappingFile) == [
                "mappings/get-jobs-1.json", "mappings/get-jobs-1-2.json",
                "mappings/get-jobs-1-3.json", "mappings/get-other.json"
            ])
        #expect(summary.stubs.map(\.scenarioState) == ["Started", "2", "3", nil])
        #expect(summary.stubs.map(\.duplicates) == [1, 0, 0, 1])
        #expect(
            summary.description.contains(#"mappings/get-jobs-1-2.json  GET /jobs/1  (scenario "GET /jobs/1", state 2)"#)
        )
        let jobs = try folder.load().filter { $0.scenarioName == "GET /jobs/1" }
            .sorted {
                ($0.requiredScenarioState == "Started" ? "1" : $0.requiredScenarioState ?? "")
                    < ($1.requiredScenarioState == "Started" ? "1" : $1.requiredScenarioState ?? "")
            }
        #expect(jobs.map(\.requiredScenarioState) == ["Started", "2", "3"])
        #expect(jobs.map(\.newScenarioState) == ["2", "3", nil])
        #expect(jobs.map(\.response.status) == [200, 200, 410])
        #expect(
            jobs.compactMap(\.bodyBytes).map { String(decoding: $0, as: UTF8.self) }
                == ["{\n  \"state\": \"queued\"\n}", "{\n  \"state\": \"running\"\n}", "{\n  \"state\": \"gone\"\n}"])
    }

    @Test("Without it, the first response is kept and the difference reported")
    func noSequences() throws {
        let folder = try WriterFolder()
        let summary = try folder.write([.json("/jobs/1", body: #"{"a":1}"#), .json("/jobs/1", body: #"{"a":2}"#)])
        #expect(summary.stubs.count == 1)
        #expect(summary.stubs.first?.scenario == nil)
        #expect(summary.stubs.first?.duplicatesDiffered == true)
    }
}
