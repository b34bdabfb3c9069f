/// One admin call as a client sends it: a method and a path below `/__admin`, made from a row of
/// ``AdminRoute/table`` with its parameters filled in. The remote client (`StubServerClient`) names its calls
/// here, so it cannot ask for an endpoint the server does not have: a call whose route the table lacks stops
/// the process the first time it is made, and `AdminCallTests` makes every one.
///
/// ```swift
/// let call = AdminCall.removeMapping(id: "a b")   // DELETE, "/mappings/a%20b"
/// ```
package struct AdminCall: Sendable, Hashable {
    package let method: String
    /// The path below `/__admin`, starting with `/`, its parameters percent-encoded.
    package let path: String

    /// The call to the table's `method pattern` route (`mappings/{id}`), its parameters filled in order.
    init(_ method: String, _ pattern: String, _ parameters: String...) {
        let segments = AdminRoute.pattern(pattern)
        precondition(AdminRoute.table.contains { $0.method == method && $0.pattern == segments },
                     "the admin route table has no \(method) \(pattern)")
        var parameters = parameters[...]
        var path = ""
        for segment in segments {
            switch segment {
            case let .literal(literal):
                path += "/" + literal
            case .parameter:
                path += "/" + Self.encoded(parameters.popFirst() ?? "")
            case .rest:
                path += "/" + (parameters.popFirst() ?? "").split(separator: "/", omittingEmptySubsequences: false)
                    .map { Self.encoded(String($0)) }.joined(separator: "/")
            }
        }
        precondition(parameters.isEmpty, "\(method) \(pattern) takes fewer parameters")
        self.method = method
        self.path = path
    }

    /// `segment` with every byte but a path segment's own characters (RFC 3986 `pchar`, less `%`) as `%XX`.
    private static func encoded(_ segment: String) -> String {
        var bytes: [UInt8] = []
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                bytes.append(byte)
            case _ where "-._~!$&'()*+,;=:@".utf8.contains(byte):
                bytes.append(byte)
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension AdminCall {
    // Stubs
    package static let listMappings = AdminCall("GET", "mappings")
    package static let addMapping = AdminCall("POST", "mappings")
    package static let unusedMappings = AdminCall("GET", "mappings/unmatched")
    package static func removeMapping(id: String) -> AdminCall { AdminCall("DELETE", "mappings/{id}", id) }

    // The request journal
    package static let listRequests = AdminCall("GET", "requests")
    package static let countRequests = AdminCall("POST", "requests/count")
    package static let findRequests = AdminCall("POST", "requests/find")
    package static let nearMisses = AdminCall("POST", "near-misses/request-pattern")

    // Scenarios
    package static let listScenarios = AdminCall("GET", "scenarios")
    package static let resetScenarios = AdminCall("POST", "scenarios/reset")
    package static func setScenarioState(name: String) -> AdminCall { AdminCall("PUT", "scenarios/{name}/state", name) }

    // Recording
    package static let startRecording = AdminCall("POST", "recordings/start")
    package static let stopRecording = AdminCall("POST", "recordings/stop")
    package static let recordingStatus = AdminCall("GET", "recordings/status")
    package static let snapshotRecording = AdminCall("POST", "recordings/snapshot")

    // The server
    package static let reset = AdminCall("POST", "reset")
    package static let getSettings = AdminCall("GET", "settings")
    package static let updateSettings = AdminCall("POST", "settings")
    package static let version = AdminCall("GET", "version")
    package static let shutdown = AdminCall("POST", "shutdown")

    /// Every call above (with a sample parameter), for the test that makes them all.
    package static var all: [AdminCall] {
        [listMappings, addMapping, unusedMappings, removeMapping(id: "x"), listRequests, countRequests, findRequests,
         nearMisses, listScenarios, resetScenarios, setScenarioState(name: "x"), startRecording, stopRecording,
         recordingStatus, snapshotRecording, reset, getSettings, updateSettings, version, shutdown]
    }
}
