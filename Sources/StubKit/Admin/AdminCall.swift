import StubHTTP

/// One admin call as a client sends it: a method and a path below `/__admin`, made from a row of
/// ``AdminRoute/table`` with its parameters filled in. The remote client (`StubServerClient`) names its calls
/// here, so it cannot ask for an endpoint the server does not have: a call whose route the table lacks stops
/// the process the first time it is made, and `AdminCallTests` makes every one.
///
/// ```swift
/// let call = AdminCall(.removeMapping, "a b")   // DELETE, "/mappings/a%20b"
/// ```
package struct AdminCall: Sendable, Hashable {
    package let method: String
    /// The path below `/__admin`, starting with `/`, its parameters percent-encoded.
    package let path: String
    /// The query, without `?`; `nil` for none.
    package private(set) var query: String?

    /// The query that asks for what WireMock's Java client cannot read and stubserver's own clients use:
    /// `matchResult.mismatches` in near misses, a truncated response body's `bodyTruncated` and
    /// `originalBodyLength` in serve events.
    package static let detailQuery = "stubserver=true"

    /// This call with ``detailQuery``.
    package var detailed: AdminCall {
        var call = self
        call.query = Self.detailQuery
        return call
    }

    /// The call to `endpoint`, its parameters (`{id}`, `{name}`, in order) filled in.
    package init(_ endpoint: Endpoint, _ parameters: String...) {
        self.init(endpoint, parameters)
    }

    /// The call to `endpoint`, its parameters (`{id}`, `{name}`, in order) filled in.
    package init(_ endpoint: Endpoint, _ parameters: [String]) {
        let (method, pattern) = endpoint.route
        let segments = AdminRoute.pattern(pattern)
        precondition(
            AdminRoute.table.contains { $0.method == method && $0.pattern == segments },
            "the admin route table has no \(method) \(pattern)")
        var parameters = parameters[...]
        var path = ""
        for segment in segments {
            switch segment {
            case let .literal(literal):
                path += "/" + literal
            case .parameter:
                path += "/" + PercentEncoding.pathSegment(parameters.popFirst() ?? "")
            case .rest:
                path +=
                    "/"
                    + (parameters.popFirst() ?? "").split(separator: "/", omittingEmptySubsequences: false)
                    .map { PercentEncoding.pathSegment(String($0)) }.joined(separator: "/")
            }
        }
        precondition(parameters.isEmpty, "\(method) \(pattern) takes fewer parameters")
        self.method = method
        self.path = path
    }
}

extension AdminCall {
    /// The admin endpoints the remote client calls, each a row of ``AdminRoute/table``: the raw value is the
    /// row's method and path pattern. A case whose row the table lacks fails `AdminCallTests`, which makes
    /// every case.
    package enum Endpoint: String, CaseIterable, Sendable {
        // Stubs
        case listMappings = "GET mappings"
        case addMapping = "POST mappings"
        case unusedMappings = "GET mappings/unmatched"
        case removeMapping = "DELETE mappings/{id}"
        // The request journal
        case listRequests = "GET requests"
        case countRequests = "POST requests/count"
        case findRequests = "POST requests/find"
        case nearMisses = "POST near-misses/request-pattern"
        // Scenarios
        case listScenarios = "GET scenarios"
        case resetScenarios = "POST scenarios/reset"
        case setScenarioState = "PUT scenarios/{name}/state"
        // Recording
        case startRecording = "POST recordings/start"
        case stopRecording = "POST recordings/stop"
        case recordingStatus = "GET recordings/status"
        case snapshotRecording = "POST recordings/snapshot"
        // Isolated servers
        case createServer = "POST servers"
        case listServers = "GET servers"
        case getServer = "GET servers/{id}"
        case deleteServer = "DELETE servers/{id}"
        // The server
        case reset = "POST reset"
        case getSettings = "GET settings"
        case updateSettings = "POST settings"
        case version = "GET version"
        case hosts = "GET hosts"
        case shutdown = "POST shutdown"
        case availability = "GET stubserver/availability"
        case setAvailability = "PUT stubserver/availability"
        case listStreams = "GET stubserver/streams"
        case sendToStreams = "POST stubserver/streams/send"
        case finishStreams = "POST stubserver/streams/finish"
        case abortStreams = "POST stubserver/streams/abort"
        case listDataCollections = "GET stubserver/data"
        case declareDataCollection = "POST stubserver/data"
        case getDataCollection = "GET stubserver/data/{name}"
        case replaceDataItems = "PUT stubserver/data/{name}"
        case resetDataCollection = "DELETE stubserver/data/{name}"
        case listWebSockets = "GET stubserver/websockets"
        case sendToWebSockets = "POST stubserver/websockets/send"
        case closeWebSockets = "POST stubserver/websockets/close"

        /// The row's method and path pattern (`mappings/{id}`).
        var route: (method: String, pattern: String) {
            let space = rawValue.firstIndex(of: " ") ?? rawValue.startIndex
            return (String(rawValue[..<space]), String(rawValue[rawValue.index(after: space)...]))
        }

        /// How many parameters the pattern takes.
        package var parameterCount: Int {
            AdminRoute.pattern(route.pattern).count { if case .literal = $0 { false } else { true } }
        }
    }
}
