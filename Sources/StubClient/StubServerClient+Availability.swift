import Foundation
import StubKit

/// "No internet" and a hanging server, over the admin API (`/__admin/stubserver/availability`).
///
/// While offline or hanging, the server's port does not answer the admin API either, so every spell has
/// a duration, after which the server is online again by itself:
///
/// ```swift
/// try await server.goOffline(for: .seconds(5))   // connections refused for 5 s
/// try await server.hang(for: .seconds(5))        // requests unanswered for 5 s, then answered
/// ```
extension StubServerClient {
    /// Takes the server offline for `duration` (a whole number of milliseconds, up to an hour): its port
    /// refuses connections, open keep-alive connections close, then it listens again on the same port.
    public func goOffline(for duration: Duration) async throws {
        try await setAvailability(.offline, for: duration)
    }

    /// Makes the server hang for `duration` (a whole number of milliseconds, up to an hour): requests are read
    /// and held unanswered until the client gives up, or until the duration has passed, when the server
    /// answers the ones still waiting.
    public func hang(for duration: Duration) async throws {
        try await setAvailability(.hanging, for: duration)
    }

    /// Brings the server back online (a server that is online already stays so). A server offline or hanging
    /// cannot hear it: this call fails (offline) or waits (hanging) until the spell is over.
    public func goOnline() async throws {
        try await setAvailability(.online, for: nil)
    }

    /// Takes virtual host `host`'s port (`--host-alias`) offline, for `duration` or until
    /// ``goOnline(host:)``: the server's other ports, and its admin API, still answer.
    public func goOffline(host: String, for duration: Duration? = nil) async throws {
        try await setAvailability(.offline, host: host, for: duration)
    }

    /// Makes virtual host `host`'s port hang, for `duration` or until ``goOnline(host:)``.
    public func hang(host: String, for duration: Duration? = nil) async throws {
        try await setAvailability(.hanging, host: host, for: duration)
    }

    /// Brings virtual host `host`'s port back online.
    public func goOnline(host: String) async throws {
        try await setAvailability(.online, host: host, for: nil)
    }

    /// Whether the server answers (`.online`); the admin API never sees it otherwise, as it cannot be reached.
    public func availability() async throws -> StubServerAvailability {
        let answer = try await send(.availability)
        let name = try answer.json()["state"]?.stringValue ?? ""
        guard let availability = StubServerAvailability(rawValue: name) else {
            throw StubServerClientError(
                kind: .unexpectedAnswer, call: answer.call, status: answer.status, detail: "no known 'state': \(name)")
        }
        return availability
    }

    private func setAvailability(
        _ availability: StubServerAvailability, host: String? = nil, for duration: Duration?
    ) async throws {
        var body: [(key: String, value: JSONValue)] = [("state", .string(availability.rawValue))]
        if let host { body.append(("host", .string(host))) }
        if let duration {
            let milliseconds = duration / .milliseconds(1)
            body.append(("durationMilliseconds", JSONValue(Int(milliseconds.rounded(.up)))))
        }
        _ = try await send(.setAvailability, body: .object(body))
    }
}
