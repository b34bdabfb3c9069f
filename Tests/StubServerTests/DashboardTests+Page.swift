import Foundation
import StubServerTestSupport
import StubTestSupport
import StubTesting
import Testing

/// The page as it first loads: on a server without a token it carries the most recent requests, so its list is
/// never "No requests yet" while the journal holds some; with a token it carries none and says it is loading. The
/// feed's `hello` says how many requests it starts with, so a page that waits for it can tell an empty journal.
extension DashboardTests {
    static let dataBlockStart = #"<script type="application/json" id="initial-requests">"#

    /// The page's data block, parsed, and its raw text; `nil` when the page carries none.
    static func initialData(_ page: ClientResponse) throws -> (json: [String: Any], raw: String)? {
        guard let start = page.text.range(of: dataBlockStart) else { return nil }
        let rest = page.text[start.upperBound...]
        let end = try #require(rest.range(of: "</script>"), "the data block is closed")
        let raw = String(rest[..<end.lowerBound])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any])
        return (json, raw)
    }

    /// The text of the requests list's note as the page is served.
    static func emptyNote(_ page: ClientResponse) throws -> String {
        let start = try #require(page.text.range(of: #"<p id="requests-empty" class="note">"#))
        let end = try #require(page.text[start.upperBound...].range(of: "</p>"))
        return String(page.text[start.upperBound..<end.lowerBound])
    }

    @Test("With requests journaled, the page carries them (oldest first, values escaped) and never says none yet")
    func pageCarriesRecentRequests() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            server.stub(.get("/users/octocat"), .json(["login": "octocat"]), name: "</script><b>octocat & co</b>")
            _ = try await HTTP.get(server, "/users/octocat")
            let port = server.port
            let raw = try await offPool {
                try RawClient(port: port).roundTrip(
                    "GET /x/</script><script>alert(1)</script> HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                )
            }
            #expect(raw.status == 404)
            let page = try await offPool { try Self.get(port, "/__admin/dashboard") }
            #expect(page.status == 200)
            let policy = try #require(page.header("Content-Security-Policy"))
            #expect(policy.contains("script-src 'self';") && !policy.contains("unsafe-inline"), "no inline script runs")
            let (json, text) = try #require(try Self.initialData(page), "the page carries the journal's requests")
            let requests = try #require(json["requests"] as? [[String: Any]])
            #expect(
                requests.map { $0["url"] as? String } == ["/users/octocat", "/x/</script><script>alert(1)</script>"])
            #expect(requests.map { $0["seq"] as? Int } == [1, 2])
            #expect((requests[0]["stub"] as? [String: Any])?["name"] as? String == "</script><b>octocat & co</b>")
            #expect((json["journal"] as? [String: Any])?["enabled"] as? Bool == true)
            #expect(!text.contains("<") && !text.contains(">") && !text.contains("&"), "no markup can end the block")
            #expect(!page.text.contains("No requests yet"), "the page itself never says the journal is empty")
            #expect(try Self.emptyNote(page) == "Loading requests…")
        }
    }

    @Test("An empty journal: the page carries an empty list, which the script shows as none yet")
    func pageWithEmptyJournal() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            let port = server.port
            let page = try await offPool { try Self.get(port, "/__admin/dashboard") }
            let (json, _) = try #require(try Self.initialData(page))
            #expect((json["requests"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("The page carries the newest requests that fit in 256 KiB, at most 200")
    func pageIsBounded() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            let long = String(repeating: "a", count: 1_900)
            for index in 0..<150 { _ = try await HTTP.get(server, "/\(index)/\(long)") }
            for index in 150..<420 { _ = try await HTTP.get(server, "/\(index)") }
            let port = server.port
            var page = try await offPool { try Self.get(port, "/__admin/dashboard") }
            var requests = try #require(try Self.initialData(page)?.json["requests"] as? [[String: Any]])
            #expect(requests.map { $0["seq"] as? Int } == (221...420).map { $0 }, "the 200 most recent, oldest first")
            // Now the 150 long ones are the most recent: they do not all fit, the newest do.
            for index in 420..<570 { _ = try await HTTP.get(server, "/\(index)/\(long)") }
            page = try await offPool { try Self.get(port, "/__admin/dashboard") }
            let (json, raw) = try #require(try Self.initialData(page))
            requests = try #require(json["requests"] as? [[String: Any]])
            #expect(raw.utf8.count <= 256 * 1024 + 200, "the summaries fit in 256 KiB")
            #expect(requests.count > 100 && requests.count < 150)
            #expect(requests.last?["seq"] as? Int == 570, "the newest is carried")
            let seqs = requests.compactMap { $0["seq"] as? Int }
            #expect(seqs == Array((571 - seqs.count)...570), "the newest ones, with no gap")
        }
    }

    @Test("With an admin token the page carries no request and says it is loading")
    func pageWithTokenCarriesNothing() async throws {
        let server = try Self.server { $0.adminToken = "s3cret" }
        try await shuttingDown(server) {
            _ = try await HTTP.get(server, "/secret/path")
            let port = server.port
            let page = try await offPool { try Self.get(port, "/__admin/dashboard") }
            #expect(page.status == 200)
            #expect(try Self.initialData(page) == nil)
            #expect(!page.text.contains("/secret/path"))
            #expect(!page.text.contains("No requests yet"))
            #expect(try Self.emptyNote(page) == "Loading requests…")
        }
    }

    @Test("The feed's hello says how many requests it starts with: 0 for an empty journal")
    func helloCountsRecent() async throws {
        let server = try Self.server()
        try await shuttingDown(server) {
            let port = server.port
            let empty = try await offPool { try Self.openFeed(port) }
            #expect(try await offPool { try empty.read(until: "\"recent\":0}\n\n") })
            _ = try await HTTP.get(server, "/one")
            _ = try await HTTP.get(server, "/two")
            let two = try await offPool { try Self.openFeed(port) }
            #expect(try await offPool { try two.read(until: "\"url\":\"/two\"") })
            let start = String(decoding: two.unread, as: UTF8.self)
            let hello = try #require(start.range(of: "event: hello\ndata: "))
            let first = try #require(start.range(of: "event: request\n"))
            #expect(hello.upperBound < first.lowerBound, "hello comes first")
            #expect(start[hello.upperBound..<first.lowerBound].contains("\"recent\":2}"))
        }
    }
}
