import Foundation
import StubKit

/// Recording on a server in another process, over `/__admin/recordings`.
///
/// ```swift
/// try await client.startRecording(RecordingSpec(target: URL(string: "https://api.github.com")!))
/// … // the app talks to the server
/// let recorded = try await client.stopRecording()   // the stubs, now served and written to its stubs folder
/// ```
extension StubServerClient {
    /// Starts recording (`POST /__admin/recordings/start`). Sent: the target, the filter, the captured
    /// headers, the body extraction thresholds, `repeatsAsScenarios` and `persist`; the secret
    /// filter, JSON style, folder and byte bound are the server's own.
    /// - Throws: ``StubServerClientError`` (409 when the server is already recording).
    public func startRecording(_ spec: RecordingSpec) async throws {
        _ = try await send(.startRecording, body: spec.adminJSON(includingTarget: true))
    }

    /// Stops recording (`POST /__admin/recordings/stop`) and returns the stubs made (file bodies keep
    /// only their name).
    public func stopRecording() async throws -> [StubMapping] {
        try Self.decodeMappings(await send(.stopRecording))
    }

    /// Stubs from the journal's forwarded requests (`POST /__admin/recordings/snapshot`); the spec's
    /// target is not used.
    public func snapshotRecording(_ spec: RecordingSpec) async throws -> [StubMapping] {
        try Self.decodeMappings(await send(.snapshotRecording, body: spec.adminJSON(includingTarget: false)))
    }

    /// Whether the server is recording (`GET /__admin/recordings/status`).
    public var recordingStatus: RecordingStatus {
        get async throws {
            let answer = try await send(.recordingStatus)
            guard let text = try answer.json()["status"]?.stringValue, let status = RecordingStatus(rawValue: text)
            else {
                throw StubServerClientError(
                    kind: .unexpectedAnswer, call: answer.call, status: answer.status,
                    detail: "no known 'status' in the answer")
            }
            return status
        }
    }
}

extension RecordingSpec {
    /// WireMock's recording spec for the admin API.
    func adminJSON(includingTarget: Bool) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if includingTarget, let target { members.append(("targetBaseUrl", .string(target.absoluteString))) }
        if includingTarget, forwardProxy { members.append(("forwardProxy", true)) }
        if let filter { members.append(("filters", filter.json)) }
        if !writer.captureHeaders.isEmpty {
            members.append(
                (
                    "captureHeaders",
                    .object(
                        writer.captureHeaders.map { name in
                            (
                                name,
                                JSONValue.object(
                                    writer.ignoresCase(ofHeader: name) ? [("caseInsensitive", .bool(true))] : [])
                            )
                        })
                ))
        }
        if let extraction = writer.inlineBodies {
            members.append(
                (
                    "extractBodyCriteria",
                    .object([
                        ("textSizeThreshold", .string(String(extraction.textSizeThreshold))),
                        ("binarySizeThreshold", .string(String(extraction.binarySizeThreshold)))
                    ])
                ))
        }
        members.append(("repeatsAsScenarios", .bool(writer.recordsSequences)))
        members.append(("persist", .bool(persist)))
        return .object(members)
    }
}
