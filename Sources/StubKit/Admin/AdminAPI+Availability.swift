import StubHTTP

/// `/__admin/stubserver/availability`: taking the server offline or making it hang for a while, over
/// the admin API (see ``StubServer/goOffline(for:)``).
///
/// While offline or hanging, the admin API on the same port cannot be reached (or is not answered) either,
/// so a remote client could never bring the server back: `offline` and `hanging` need
/// `durationMilliseconds`, after which the server is online again by itself.
extension AdminAPI {
    /// The longest spell offline or hanging the admin API accepts: an hour.
    static let maxAvailabilityMilliseconds = 3_600_000

    /// `GET /__admin/stubserver/availability`: `{"state": "online"}`.
    func availability() -> HTTPResponse {
        AdminResponse.json(["state": .string(state.httpServer?.availability()?.rawValue ?? "offline")])
    }

    /// `PUT /__admin/stubserver/availability` with `{"state": "offline", "durationMilliseconds": 5000}`
    /// (`hanging` likewise; `online` takes no duration): answers, then applies. The answer to this very call
    /// is sent before its connection closes (offline) and is not held (hanging).
    func setAvailability(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let json = try Self.parseBody(body)
        guard case .object(let members) = json else {
            throw Self.invalidAvailability("/", "expected an object such as {\"state\": \"online\"}")
        }
        for (key, _) in members where key != "state" && key != "durationMilliseconds" {
            throw Self.invalidAvailability(
                "/\(key)", "unknown field '\(key)' (expected 'state' and 'durationMilliseconds')")
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
        } else if availability != .online {
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
            try http.setAvailabilityOfAllListeners(availability, revertingAfter: duration)
        } catch {
            throw AdminError(
                status: .serviceUnavailable, code: 503, title: "Availability not changed",
                detail: error.message, pointer: nil)
        }
        var answer: [(key: String, value: JSONValue)] = [("state", .string(name))]
        if let value = json["durationMilliseconds"] { answer.append(("durationMilliseconds", value)) }
        return AdminResponse.json(.object(answer))
    }

    private static func invalidAvailability(_ pointer: String, _ detail: String) -> AdminError {
        AdminError(
            status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid availability",
            detail: detail, pointer: pointer)
    }
}
