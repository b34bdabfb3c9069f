import StubHTTP
import Testing

@testable import StubKit

@Suite("Request journal bounds: entries, bytes, body size")
struct RequestJournalTests {
    private func post(_ n: Int, bodySize: Int) -> HTTPRequest {
        HTTPRequest(method: .post, target: "/upload/\(n)", body: [UInt8](repeating: UInt8(n % 256), count: bodySize))
    }

    @Test("Defaults: 10,000 entries, 64 MiB, 1 MiB per body, enabled")
    func defaults() {
        let limits = RequestJournal.Limits()
        #expect(limits.maxEntries == 10_000)
        #expect(limits.maxBytes == 64 * 1024 * 1024)
        #expect(limits.maxBodyBytes == 1024 * 1024)
        #expect(limits.isEnabled)
    }

    @Test("A body over the cap is stored cut and marked, with its original length")
    func bodyCap() {
        var limits = RequestJournal.Limits()
        limits.maxBodyBytes = 1_000
        let journal = RequestJournal(limits: limits)
        let request = post(1, bodySize: 5_000)
        let entry = journal.record(request, matchedStub: nil, status: 404)
        #expect(entry.bodyTruncated)
        #expect(entry.originalBodyLength == 5_000)
        #expect(entry.request.body == Array(request.body.prefix(1_000)))
        let small = journal.record(post(2, bodySize: 1_000), matchedStub: nil, status: 404)
        #expect(!small.bodyTruncated)
        #expect(small.originalBodyLength == 1_000)
        #expect(journal.entries.map(\.bodyTruncated) == [true, false])
    }

    @Test("Past the byte budget the oldest entries go first")
    func byteBudget() {
        var limits = RequestJournal.Limits()
        limits.maxBytes = 10_000
        limits.maxBodyBytes = 4_000
        let journal = RequestJournal(limits: limits)
        for n in 0..<10 { journal.record(post(n, bodySize: 3_000), matchedStub: nil, status: 200) }
        let kept = journal.entries.map(\.request.target)
        #expect(kept == ["/upload/7", "/upload/8", "/upload/9"])
        #expect(journal.byteCount <= 10_000)
        #expect(journal.droppedCount == 7)
        journal.removeAll()
        #expect(journal.byteCount == 0)
    }

    @Test("The entry bound still holds alongside the byte budget")
    func entryBound() {
        let journal = RequestJournal(capacity: 3)
        for n in 0..<5 { journal.record(post(n, bodySize: 10), matchedStub: nil, status: 200) }
        #expect(journal.entries.map(\.request.target) == ["/upload/2", "/upload/3", "/upload/4"])
        #expect(journal.droppedCount == 2)
    }

    @Test("A disabled journal keeps nothing but still numbers requests")
    func disabled() {
        var limits = RequestJournal.Limits()
        limits.isEnabled = false
        let journal = RequestJournal(limits: limits)
        let first = journal.record(post(1, bodySize: 10), matchedStub: nil, status: 200)
        let second = journal.record(post(2, bodySize: 10), matchedStub: nil, status: 200)
        journal.recordRejection(remoteAddress: "127.0.0.1:1", status: 400, reason: "bad")
        #expect(second.id == first.id + 1)
        #expect(journal.entries.isEmpty)
        #expect(journal.rejections.isEmpty)
        #expect(!journal.isEnabled)
    }

    private let stub = LoggedRequest.MatchedStub(id: "s", name: nil, displayName: "s")

    private func answer(bodySize: Int) -> HTTPResponse {
        HTTPResponse(status: .ok, body: [UInt8](repeating: 0x61, count: bodySize))
    }

    @Test("A response body made for the request (template, closure, upstream) counts: the oldest entries go")
    func ownedResponseBodiesCount() {
        var limits = RequestJournal.Limits()
        limits.maxBytes = 256 * 1024
        let journal = RequestJournal(limits: limits)
        for n in 0..<20 {
            journal.record(
                post(n, bodySize: 0), matchedStub: stub, status: 200, response: answer(bodySize: 64 * 1024),
                ownsResponseBody: true)
            #expect(journal.byteCount <= limits.maxBytes)
        }
        let kept = journal.entries
        #expect(kept.count == 3)
        #expect(kept.map(\.request.target) == ["/upload/17", "/upload/18", "/upload/19"])
        #expect(journal.droppedCount == 17)
        #expect(journal.byteCount == kept.reduce(0) { $0 + $1.journalCost })
        #expect(journal.byteCount >= 3 * 64 * 1024)
    }

    @Test("A static stub's response body is shared with the stub: it costs nothing and is kept whole")
    func sharedResponseBodiesAreFree() {
        var limits = RequestJournal.Limits()
        limits.maxBytes = 256 * 1024
        limits.maxBodyBytes = 1_000
        let journal = RequestJournal(limits: limits)
        for n in 0..<20 {
            journal.record(post(n, bodySize: 0), matchedStub: stub, status: 200, response: answer(bodySize: 64 * 1024))
        }
        #expect(journal.entries.count == 20)
        #expect(journal.byteCount < 20 * 1024)
        #expect(journal.entries.allSatisfy { $0.response?.body.count == 64 * 1024 && !$0.responseBodyTruncated })
    }

    @Test("A response body of the entry's own over the cap is stored cut and marked, with its original length")
    func responseBodyCap() {
        var limits = RequestJournal.Limits()
        limits.maxBodyBytes = 1_000
        let journal = RequestJournal(limits: limits)
        let entry = journal.record(
            post(1, bodySize: 0), matchedStub: stub, status: 200, response: answer(bodySize: 5_000),
            ownsResponseBody: true)
        #expect(entry.responseBodyTruncated)
        #expect(entry.originalResponseBodyLength == 5_000)
        #expect(entry.response?.body.count == 1_000)
        #expect(entry.response?.status == .ok)
        #expect(journal.byteCount < 2_000)
        let notFound = journal.record(
            post(2, bodySize: 0), matchedStub: nil, status: 404, response: answer(bodySize: 5_000))
        #expect(notFound.responseBodyTruncated)
        let small = journal.record(
            post(3, bodySize: 0), matchedStub: stub, status: 200, response: answer(bodySize: 1_000),
            ownsResponseBody: true)
        #expect(!small.responseBodyTruncated)
        #expect(small.originalResponseBodyLength == 1_000)
    }
}
