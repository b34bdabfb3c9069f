import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One request the server received, as the journal keeps it.
public struct LoggedRequest: Sendable, Identifiable {
    /// The stub that answered a request.
    public struct MatchedStub: Sendable, Hashable {
        public var id: String
        public var name: String?
        /// How the stub is named in logs: its name, else its source file, else its id.
        public var displayName: String

        package init(id: String, name: String?, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }

    /// Increasing sequence number, unique per server.
    public let id: Int
    /// When the request was received (complete).
    public let receivedAt: Date
    /// The request as received.
    public let request: StubHTTPRequest
    /// The stub that answered it, or `nil` if none matched.
    public let matchedStub: MatchedStub?
    /// The status sent back.
    public let responseStatus: Int
    /// The response sent (or scheduled, for a delayed stub): status, headers and body. A static stub's
    /// body is shared with the stub, so keeping it costs no copy; a body made for this request (a
    /// template, a closure, an upstream's answer, a 404 report) is the entry's own and is kept cut at
    /// ``RequestJournal/Limits/maxBodyBytes`` (see ``responseBodyTruncated``).
    public let response: StubHTTPResponse?
    /// How long serving took.
    public let timing: ServeTiming
    /// The body's length as received, in bytes: more than `request.body.count` when the journal cut it.
    public let originalBodyLength: Int
    /// The response body's length as sent, in bytes: more than `response.body.count` when the journal cut it.
    public let originalResponseBodyLength: Int
    /// What this entry counts against the journal's byte budget.
    let journalCost: Int
    /// The upstream URL the request was forwarded to, when a proxy stub, `--proxy-all` or a
    /// recording answered it; `nil` otherwise. What `POST /__admin/recordings/snapshot` records.
    public internal(set) var proxiedTo: String? = nil
    /// The fault sent instead of a response (a reset, an empty reply, garbage), when the stub that
    /// answered has one; ``responseStatus`` and ``response`` then hold the stub's definition, as WireMock
    /// logs them, though the client received no response.
    public internal(set) var fault: ResponseFault? = nil

    /// Whether the journal kept only the first ``RequestJournal/Limits/maxBodyBytes`` of the body
    /// (``originalBodyLength`` has the full length). Matching saw the whole body.
    public var bodyTruncated: Bool { request.body.count < originalBodyLength }

    /// Whether the journal kept only the first ``RequestJournal/Limits/maxBodyBytes`` of the response
    /// body (``originalResponseBodyLength`` has the full length). The client got the whole body.
    public var responseBodyTruncated: Bool { (response?.body.count ?? 0) < originalResponseBodyLength }

    /// Whether a stub answered the request.
    public var wasMatched: Bool { matchedStub != nil }

    package init(
        id: Int, receivedAt: Date, request: StubHTTPRequest, matchedStub: MatchedStub?, responseStatus: Int,
        response: StubHTTPResponse?, timing: ServeTiming, originalBodyLength: Int, originalResponseBodyLength: Int,
        journalCost: Int, proxiedTo: String? = nil, fault: ResponseFault? = nil
    ) {
        self.id = id
        self.receivedAt = receivedAt
        self.request = request
        self.matchedStub = matchedStub
        self.responseStatus = responseStatus
        self.response = response
        self.timing = timing
        self.originalBodyLength = originalBodyLength
        self.originalResponseBodyLength = originalResponseBodyLength
        self.journalCost = journalCost
        self.proxiedTo = proxiedTo
        self.fault = fault
    }
}

/// How long a request took to serve, as WireMock's serve event `timing` reports it.
public struct ServeTiming: Sendable, Hashable {
    /// Matching the request and choosing the response.
    public var processTime: Duration
    /// The stub's delay (`fixedDelayMilliseconds`, global delay) before the response was sent.
    public var addedDelay: Duration

    public init(processTime: Duration = .zero, addedDelay: Duration = .zero) {
        self.processTime = processTime
        self.addedDelay = addedDelay
    }

    /// A stub's delay plus the global one; `nil` when both are absent.
    static func combined(_ stub: Duration?, _ global: Duration?) -> Duration? {
        switch (stub, global) {
        case (nil, nil): nil
        case let (stub, global): (stub ?? .zero) + (global ?? .zero)
        }
    }

    /// Processing plus the added delay.
    public var totalTime: Duration { processTime + addedDelay }
}

extension LoggedRequest: CustomStringConvertible {
    /// `GET /users/octocat → 200 (GitHub user octocat)`; for a fault,
    /// `GET /broken → 200, fault CONNECTION_RESET_BY_PEER (Reset)`.
    public var description: String {
        let fault = fault.map { ", fault \($0.rawValue)" } ?? ""
        return
            "\(request.method) \(request.target) → \(responseStatus)\(fault) (\(matchedStub?.displayName ?? "no match"))"
    }
}
