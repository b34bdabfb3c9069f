import StubHTTP

/// `/__admin/stubserver/availability`: taking the server offline or making it hang for a while, over
/// the admin API (see ``StubServer/goOffline(host:for:)``).
///
/// While offline or hanging, the admin API on the same port cannot be reached (or is not answered) either,
/// so a remote client could never bring the server back: `offline` and `hanging` need
/// `durationMilliseconds`, after which the server is online again by itself. With `"host"`, only that virtual
/// host's port changes, and the primary port still answers: the duration is then optional.
extension AdminAPI {
    /// The longest spell offline or hanging the admin API accepts: an hour.
    static let maxAvailabilityMilliseconds = 3_600_000

    /// `GET /__admin/stubserver/availability`: `{"state": "online", "hosts": {"api.example.com": "offline"}}`
    /// (`hosts` with the virtual hosts only).
    func availability() -> HTTPResponse {
        let http = state.httpServer
        var answer: [(key: String, value: JSONValue)] = [
            ("state", .string(http?.availability()?.rawValue ?? "offline"))
        ]
        let labels = http?.configuration.additionalListeners.map(\.label) ?? []
        if !labels.isEmpty {
            answer.append(
                (
                    "hosts",
                    .object(labels.map { ($0, .string(http?.availability(ofListener: $0)?.rawValue ?? "offline")) })
                )
            )
        }
        return AdminResponse.json(.object(answer))
    }

    /// `PUT /__admin/stubserver/availability` with `{"state": "offline", "durationMilliseconds": 5000}`
    /// (`hanging` likewise; `online` takes no duration): answers, then applies. The answer to this very call
    /// is sent before its connection closes (offline) and is not held (hanging).
    func setAvailability(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let json = try Self.parseBody(body)
        guard case .object(let members) = json else {
            throw Self.invalidAvailability("/", "expected an object such as {\"state\": \"online\"}")
        }
        for (key, _) in members where !["state", "durationMilliseconds", "host"].contains(key) {
            throw Self.invalidAvailability(
                "/\(key)", "unknown field '\(key)' (expected 'state', 'durationMilliseconds' and 'host')")
        }
        var host: String?
        if let value = json["host"] {
            let known = state.httpServer?.configuration.additionalListeners.map(\.label) ?? []
            guard let name = value.stringValue?.lowercased(), known.contains(name) else {
                throw Self.invalidAvailability(
                    "/host",
                    known.isEmpty
                        ? "this server has no virtual hosts (--host-alias)"
                        : "'host' must name a virtual host: \(known.joined(separator: ", "))")
            }
            host = name
        }
        let names = ListenerAvailability.allCases.map(\.rawValue).joined(separator: ", ")
        guard let name = json["state"]?.stringValue, let availability = ListenerAvailability(rawValue: name) else {
            throw Self.invalidAvailability("/state", "'state' must be one of \(names)")
        }
        var duration: Duration?
        if let value = json["durationMilliseconds"] {
            guard let milliseconds = value.intValue, (1...Self.maxAvailabilityMilliseconds).contains(milliseconds)
            else {
                throw Self.invalidAvailability(
                    "/durationMilliseconds",
                    "expected a whole number of milliseconds from 1 to \(Self.maxAvailabilityMilliseconds)")
            }
            guard availability != .online else {
                throw Self.invalidAvailability("/durationMilliseconds", "'online' takes no duration")
            }
            duration = .milliseconds(milliseconds)
        } else if availability != .online && host == nil {
            throw Self.invalidAvailability(
                "/durationMilliseconds",
                "'\(name)' needs 'durationMilliseconds': while \(name), this port does not answer the admin API "
                    + "either, so the server comes back online by itself once the duration has passed")
        }
        guard let http = state.httpServer else {
            throw AdminError(
                status: .serviceUnavailable, code: 503, title: "Server unavailable",
                detail: "the server is stopping", pointer: nil)
        }
        do {
            if let host {
                try http.setAvailability(availability, forListener: host, revertingAfter: duration)
            } else {
                try http.setAvailabilityOfAllListeners(availability, revertingAfter: duration)
            }
        } catch {
            throw AdminError(
                status: .serviceUnavailable, code: 503, title: "Availability not changed",
                detail: error.message, pointer: nil)
        }
        var answer: [(key: String, value: JSONValue)] = [("state", .string(name))]
        if let host { answer.append(("host", .string(host))) }
        if let value = json["durationMilliseconds"] { answer.append(("durationMilliseconds", value)) }
        return AdminResponse.json(.object(answer))
    }

    private static func invalidAvailability(_ pointer: String, _ detail: String) -> AdminError {
        AdminError(
            status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid availability",
            detail: detail, pointer: pointer)
    }
}
