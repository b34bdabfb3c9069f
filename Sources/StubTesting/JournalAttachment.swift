import Foundation
@_spi(StubTesting) import StubClient

#if canImport(Testing)
    import Testing
#endif

/// The server's journal as readable JSON, attached to a failed test (a Swift Testing `Attachment`
/// with Swift 6.2 and later, an `XCTAttachment` on Apple platforms) so that the requests can be read
/// in Xcode's report or CI artifacts after the run:
///
/// ```json
/// {
///   "requests": [
///     {
///       "id": 1,
///       "receivedAt": "2026-12-01T03:05:05.395Z",
///       "method": "GET",
///       "url": "/users/octokat",
///       "headers": ["Accept: application/json"],
///       "body": {"name": "stubserver"},
///       "status": 404,
///       "stub": null,
///       "response": "No stub matched GET /users/octokat…"
///     }
///   ],
///   "total": 1
/// }
/// ```
///
/// JSON bodies appear as JSON, other text as a string. Bounded: the newest ``requestLimit`` requests,
/// request bodies cut to ``bodyLimit`` bytes and response bodies to ``responseLimit`` (a 404's
/// near-miss report fits).
enum JournalAttachment {
    static let fileName = "stubserver-journal.json"
    static let requestLimit = 100
    static let bodyLimit = 16 * 1024
    static let responseLimit = 8 * 1024

    /// The journal of `server`, pretty-printed.
    static func json(_ server: StubServer) -> String {
        json(server.requests, droppedByJournal: server.journal.droppedCount)
    }

    /// `entries` (oldest first), pretty-printed: the newest ``requestLimit`` of them.
    static func json(_ entries: [LoggedRequest], droppedByJournal: Int = 0, server: URL? = nil) -> String {
        let shown = entries.suffix(requestLimit)
        var members: [(key: String, value: JSONValue)] = []
        if let server { members.append(("server", .string(server.absoluteString))) }
        members.append(("requests", .array(shown.map(entry))))
        members.append(("total", JSONValue(entries.count)))
        if shown.count < entries.count { members.append(("omitted", JSONValue(entries.count - shown.count))) }
        if droppedByJournal > 0 { members.append(("droppedByJournal", JSONValue(droppedByJournal))) }
        return JSONValue.object(members).serialized(.pretty)
    }

    /// The journal of an external server, read over its admin API (`GET /__admin/requests`); a journal that
    /// cannot be read is said in the attachment.
    static func json(external server: AnyStubServer) async -> String {
        do {
            return json(try await server.base.requests, server: server.baseURL)
        } catch {
            return unreadable(server, error)
        }
    }

    /// ``json(external:)``, waiting for the answer: for XCTest's synchronous teardown.
    static func jsonWaiting(external server: AnyStubServer) -> String {
        guard let client = server.base as? StubServerClient else {
            return unreadable(server, "\(type(of: server.base)) is read asynchronously only")
        }
        do {
            return json(try client.requestsAndWait(), server: server.baseURL)
        } catch {
            return unreadable(server, error)
        }
    }

    private static func unreadable(_ server: AnyStubServer, _ error: Any) -> String {
        JSONValue.object([
            ("server", .string(server.baseURL.absoluteString)),
            ("error", .string("the journal could not be read: \(error)"))
        ]).serialized(.pretty)
    }

    private static func entry(_ logged: LoggedRequest) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", JSONValue(logged.id)),
            ("receivedAt", .string(logged.receivedAt.formatted(.iso8601))),
            ("method", .string(logged.request.method.rawValue)),
            ("url", .string(logged.request.target)),
            ("headers", .array(logged.request.headers.map { .string($0.name + ": " + $0.value) }))
        ]
        if !logged.request.body.isEmpty { members.append(("body", text(logged.request.body, limit: bodyLimit))) }
        if logged.bodyTruncated { members.append(("originalBodyLength", JSONValue(logged.originalBodyLength))) }
        members.append(("status", JSONValue(logged.responseStatus)))
        members.append(("stub", logged.matchedStub.map { .string($0.displayName) } ?? .null))
        if let fault = logged.fault { members.append(("fault", .string(fault.rawValue))) }
        if let body = logged.response?.body, !body.isEmpty {
            members.append(("response", text(body, limit: responseLimit)))
        }
        if logged.responseBodyTruncated {
            members.append(("originalResponseLength", JSONValue(logged.originalResponseBodyLength)))
        }
        return .object(members)
    }

    /// A JSON body as JSON (so it reads as such), other UTF-8 text cut to `limit` bytes, or a byte
    /// count for binary data.
    private static func text(_ bytes: [UInt8], limit: Int) -> JSONValue {
        if bytes.count <= limit,
            let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let json = try? JSONParser.parse(bytes)
        {
            return json
        }
        let prefix = bytes.prefix(limit)
        // A cut may split the last character: up to 3 bytes are dropped before deciding it is binary.
        for trim in 0...min(3, prefix.count) {
            guard let decoded = String(bytes: prefix.dropLast(trim), encoding: .utf8), !decoded.contains("\0") else {
                continue
            }
            let cut = bytes.count - (prefix.count - trim)
            return .string(cut > 0 ? decoded + "… (\(cut) more bytes)" : decoded)
        }
        return .string("(\(bytes.count) bytes of binary data)")
    }

    /// Attaches the journal to the running Swift Testing test (Swift 6.2 and later); does nothing in
    /// an XCTest test or with an older compiler, where ``XCTestCase/startStubServer(stubs:configuration:failOnUnmatchedRequests:failOnUnusedStubs:file:line:)``
    /// attaches it on Apple platforms.
    /// Once per server and test.
    /// - Returns: whether it attached the journal now (the issue then says where to find it).
    @discardableResult
    static func recordInSwiftTesting(_ server: StubServer, at location: FailureLocation) -> Bool {
        #if compiler(>=6.2) && canImport(Testing)
            guard Test.current != nil, server.failureLedger.shouldAttachJournal() else { return false }
            Attachment.record(json(server), named: fileName, sourceLocation: location.sourceLocation)
            return true
        #else
            return false
        #endif
    }

    /// Attaches the journal of `server`, a client to a server outside this process, to the running Swift Testing
    /// test (Swift 6.2 and later), read over the admin API. Once per server and test.
    /// - Returns: whether it attached the journal now.
    static func recordInSwiftTesting(external server: AnyStubServer, at location: FailureLocation) async -> Bool {
        #if compiler(>=6.2) && canImport(Testing)
            guard Test.current != nil, server.isExternal, server.remoteLedger.shouldAttachJournal() else {
                return false
            }
            Attachment.record(await json(external: server), named: fileName, sourceLocation: location.sourceLocation)
            return true
        #else
            return false
        #endif
    }

    /// Appended to the issue whose failure attached the journal: Xcode shows attachments in its test
    /// report, but `swift test` saves them only when told where.
    static let whereToFind =
        "\n(The server's journal is attached as \(fileName): in Xcode's test report, or on the command line "
        + "with `swift test --attachments-path DIR` (an existing directory), which saves it there.)"
}
