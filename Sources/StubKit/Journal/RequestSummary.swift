import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One journal entry as the dashboard's live list shows it: who asked for what, and what answered.
///
/// Taking one is a struct copy (the request without its body, so a feed holding many holds no bodies); the
/// summarizing and the JSON are done when it is written, off the request path (``appendEvent(into:)``).
struct RequestSummary: Sendable {
    /// The most characters of the request target sent.
    static let targetLimit = 2_048

    let sequence: Int
    let receivedAt: Date
    /// The request, its body dropped.
    let request: StubHTTPRequest
    let status: Int
    let stub: LoggedRequest.MatchedStub?
    let totalTime: Duration
    let proxiedTo: String?
    let fault: ResponseFault?

    init(_ entry: LoggedRequest) {
        sequence = entry.id
        receivedAt = entry.receivedAt
        var request = entry.request
        request.body = []
        self.request = request
        status = entry.responseStatus
        stub = entry.matchedStub
        totalTime = entry.timing.totalTime
        proxiedTo = entry.proxiedTo
        fault = entry.fault
    }

    /// `event: request`, `id: <sequence>`, and `data: ` with ``appendJSON(into:)``'s object.
    func appendEvent(into bytes: inout [UInt8]) {
        bytes.append(contentsOf: "event: request\nid: \(sequence)\ndata: ".utf8)
        appendJSON(into: &bytes)
        bytes.append(contentsOf: "\n\n".utf8)
    }

    /// `{"id": "00000000-…", "seq", "loggedDate" (ms), "method", "host", "url", "status", "wasMatched",
    /// "stub"?: {"id", "name"?, "displayName"}, "totalTime" (ms), "proxiedTo"?, "fault"?}`, written straight to
    /// bytes.
    func appendJSON(into bytes: inout [UInt8]) {
        let digits = String(sequence, radix: 16)
        bytes.append(contentsOf: "{\"id\":\"00000000-0000-4000-8000-".utf8)
        for _ in digits.utf8.count..<12 { bytes.append(UInt8(ascii: "0")) }
        bytes.append(contentsOf: digits.utf8)
        let millis = Int((receivedAt.timeIntervalSince1970 * 1000).rounded())
        bytes.append(contentsOf: "\",\"seq\":\(sequence),\"loggedDate\":\(millis),\"method\":".utf8)
        JSONValue.writeString(request.method.rawValue, into: &bytes)
        let (host, port) = RequestContext.authority(of: request)
        bytes.append(contentsOf: ",\"host\":".utf8)
        JSONValue.writeString((host ?? "localhost") + (port.map { ":\($0)" } ?? ""), into: &bytes)
        bytes.append(contentsOf: ",\"url\":".utf8)
        let target = request.target
        JSONValue.writeString(
            target.count > Self.targetLimit ? String(target.prefix(Self.targetLimit)) : target, into: &bytes)
        bytes.append(contentsOf: ",\"status\":\(status),\"wasMatched\":\(stub != nil)".utf8)
        if let stub {
            bytes.append(contentsOf: ",\"stub\":{\"id\":".utf8)
            JSONValue.writeString(stub.id, into: &bytes)
            if let name = stub.name {
                bytes.append(contentsOf: ",\"name\":".utf8)
                JSONValue.writeString(name, into: &bytes)
            }
            bytes.append(contentsOf: ",\"displayName\":".utf8)
            JSONValue.writeString(stub.displayName, into: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        let (seconds, attoseconds) = totalTime.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let fraction = String(micros % 1000)
        bytes.append(contentsOf: ",\"totalTime\":\(micros / 1000).".utf8)
        for _ in fraction.utf8.count..<3 { bytes.append(UInt8(ascii: "0")) }
        bytes.append(contentsOf: fraction.utf8)
        if let proxiedTo {
            bytes.append(contentsOf: ",\"proxiedTo\":".utf8)
            JSONValue.writeString(proxiedTo, into: &bytes)
        }
        if let fault {
            bytes.append(contentsOf: ",\"fault\":".utf8)
            JSONValue.writeString(fault.rawValue, into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }
}
