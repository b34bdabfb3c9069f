import StubHTTP
import StubServerTestSupport
import StubTestSupport
import Testing

@testable import StubKit

/// A repeated unmatched request gets the report made for the first,
/// as long as the stubs are the same; the cache holds a bounded number of small requests.
@Suite("Near-miss report cache")
struct NearMissReportCacheTests {
    private let snapshot = StubSnapshot([StubMapping(id: "a", request: .get("/users/octocat"), response: .text("hi"))])

    private func request(_ target: String, body: [UInt8] = []) -> HTTPRequest {
        HTTPRequest(method: .get, target: target, headers: ["Host": "x"], body: body)
    }

    @Test("A repeat of the same request against the same stubs is a hit; any difference is a miss")
    func repeats() {
        let cache = NearMissReportCache()
        cache.keep(UnmatchedAnswer(report: "report"), for: request("/users/octocats"), in: snapshot)
        #expect(cache.report(for: request("/users/octocats"), in: snapshot)?.body == "report")
        #expect(cache.report(for: request("/users/octocat5"), in: snapshot) == nil)
        var other = request("/users/octocats")
        other.headers.add(name: "Accept", value: "text/plain")
        #expect(cache.report(for: other, in: snapshot) == nil, "the headers are part of the key")
    }

    @Test("Changed stubs make every kept report stale")
    func changedStubs() {
        let cache = NearMissReportCache()
        cache.keep(UnmatchedAnswer(report: "old"), for: request("/nope"), in: snapshot)
        let changed = StubSnapshot([StubMapping(id: "b", request: .get("/nope"), response: .text("now"))])
        #expect(cache.report(for: request("/nope"), in: changed) == nil)
        cache.keep(UnmatchedAnswer(report: "new"), for: request("/nope"), in: changed)
        #expect(cache.count == 1)
        #expect(cache.report(for: request("/nope"), in: changed)?.body == "new")
    }

    @Test("At most `capacity` reports, the oldest going first, however many distinct misses come")
    func bounded() {
        let cache = NearMissReportCache(capacity: 8)
        for index in 0..<1_000 {
            cache.keep(UnmatchedAnswer(report: "r\(index)"), for: request("/miss/\(index)"), in: snapshot)
        }
        #expect(cache.count == 8)
        #expect(cache.report(for: request("/miss/991"), in: snapshot) == nil)
        #expect(cache.report(for: request("/miss/992"), in: snapshot)?.body == "r992")
        #expect(cache.report(for: request("/miss/999"), in: snapshot)?.body == "r999")
    }

    @Test("A request over the size limit is never kept")
    func largeRequests() {
        let cache = NearMissReportCache(requestLimit: 1_024)
        let large = request("/upload", body: Array(repeating: 0x61, count: 2_048))
        cache.keep(UnmatchedAnswer(report: "report"), for: large, in: snapshot)
        #expect(cache.count == 0)
        #expect(cache.report(for: large, in: snapshot) == nil)
    }

    @Test("Over real sockets, a repeated miss gets the same report, and a stub added since changes it")
    func server() throws {
        let server = try startQuietServer()
        defer { server.stop() }
        server.stub(.get("/users/octocat"), .text("hi"), name: "octocat")
        let ask = "GET /users/octocats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let first = String(decoding: try RawSocket.exchange(port: server.port, Array(ask.utf8)), as: UTF8.self)
        let second = String(decoding: try RawSocket.exchange(port: server.port, Array(ask.utf8)), as: UTF8.self)
        #expect(first.hasPrefix("HTTP/1.1 404 "))
        #expect(first.split(separator: "\r\n\r\n").last == second.split(separator: "\r\n\r\n").last)
        server.stub(.get("/users/octocatz"), .text("z"), name: "newcomer")
        let third = String(decoding: try RawSocket.exchange(port: server.port, Array(ask.utf8)), as: UTF8.self)
        #expect(third.contains("newcomer"), "the report is made again against the new stubs")
    }
}
