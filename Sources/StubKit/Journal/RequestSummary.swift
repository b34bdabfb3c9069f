import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One journal entry as the dashboard's live list shows it: who asked for what, and what answered. Small
/// and bounded (the target is cut at ``targetLimit``), so a feed that holds many costs little.
struct RequestSummary: Sendable {
    /// The most characters of the request target kept.
    static let targetLimit = 2_048

    let sequence: Int
    let adminID: String
    let receivedAt: Date
    let method: String
    let host: String
    let target: String
    let status: Int
    let stub: LoggedRequest.MatchedStub?
    let totalTime: Duration
    let proxiedTo: String?
    let fault: String?

    init(_ entry: LoggedRequest) {
        sequence = entry.id
        adminID = entry.adminID
        receivedAt = entry.receivedAt
        method = entry.request.method.rawValue
        let (host, port) = RequestContext.authority(of: entry.request)
        self.host = (host ?? "localhost") + (port.map { ":\($0)" } ?? "")
        target = String(entry.request.target.prefix(Self.targetLimit))
        status = entry.responseStatus
        stub = entry.matchedStub
        totalTime = entry.timing.totalTime
        proxiedTo = entry.proxiedTo
        fault = entry.fault?.rawValue
    }

    /// `{"id": …, "seq": 12, "loggedDate": ms, "method", "host", "url", "status", "wasMatched", "stub": {"id",
    /// "name", "displayName"}, "totalTime": ms, "proxiedTo"?, "fault"?}`.
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(adminID)), ("seq", JSONValue(sequence)),
            ("loggedDate", JSONValue(Int((receivedAt.timeIntervalSince1970 * 1000).rounded()))),
            ("method", .string(method)), ("host", .string(host)), ("url", .string(target)),
            ("status", JSONValue(status)), ("wasMatched", .bool(stub != nil))
        ]
        if let stub {
            var stubMembers: [(key: String, value: JSONValue)] = [("id", .string(stub.id))]
            if let name = stub.name { stubMembers.append(("name", .string(name))) }
            stubMembers.append(("displayName", .string(stub.displayName)))
            members.append(("stub", .object(stubMembers)))
        }
        let (seconds, attoseconds) = totalTime.components
        let millis = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        members.append(("totalTime", JSONValue((millis * 1000).rounded() / 1000)))
        if let proxiedTo { members.append(("proxiedTo", .string(proxiedTo))) }
        if let fault { members.append(("fault", .string(fault))) }
        return .object(members)
    }
}
