import Foundation
import StubKit

/// Pushing into a server's open streamed responses over the admin API (`/__admin/stubserver/streams`), as
/// `StubServer.streams(matching:)` does in-process:
///
/// ```swift
/// try await server.send([ServerSentEvent(data: "1-0", event: "goal")], toStreamsMatching: .get("/scores"))
/// try await server.finishStreams(matching: .get("/scores"))
/// ```
extension StubServerClient {
    /// Sends `events` (delays ignored) to every open event stream whose request matches `pattern`; returns how
    /// many streams got them.
    @discardableResult
    public func send(_ events: [ServerSentEvent], toStreamsMatching pattern: RequestPattern) async throws -> Int {
        try await streamCall(
            .sendToStreams, pattern, ("events", .array(events.map(\.json))))
    }

    /// Sends `lines` (delays ignored) to every open line stream whose request matches `pattern`; returns how
    /// many streams got them.
    @discardableResult
    public func send(_ lines: [StreamedLine], toStreamsMatching pattern: RequestPattern) async throws -> Int {
        try await streamCall(.sendToStreams, pattern, ("lines", .array(lines.map(\.json))))
    }

    /// Ends every open stream whose request matches `pattern` properly; returns how many.
    @discardableResult
    public func finishStreams(matching pattern: RequestPattern) async throws -> Int {
        try await streamCall(.finishStreams, pattern, nil)
    }

    /// Closes the connection of every open stream whose request matches `pattern` mid-response; returns how many.
    @discardableResult
    public func abortStreams(matching pattern: RequestPattern) async throws -> Int {
        try await streamCall(.abortStreams, pattern, nil)
    }

    /// How many streams are open now (`GET /__admin/stubserver/streams`).
    public func openStreamCount() async throws -> Int {
        let answer = try await send(.listStreams)
        guard case .array(let streams)? = try answer.json()["streams"] else { return 0 }
        return streams.count
    }

    private func streamCall(
        _ endpoint: AdminCall.Endpoint, _ pattern: RequestPattern, _ content: (key: String, value: JSONValue)?
    ) async throws -> Int {
        var body: [(key: String, value: JSONValue)] = [("request", pattern.json)]
        if let content { body.append(content) }
        let answer = try await send(endpoint, body: .object(body))
        return try answer.json()["streams"]?.intValue ?? 0
    }
}
