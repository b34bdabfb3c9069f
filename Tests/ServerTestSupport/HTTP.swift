import Foundation
import StubTestSupport
import StubTesting

/// The loopback client's URLSession mode (``LoopbackClient``) aimed at a `StubServer`.
public enum HTTP {
    public static func get(_ server: StubServer, _ path: String, headers: [String: String] = [:]) async throws
        -> Fetched
    {
        try await send(server, "GET", path, headers: headers)
    }

    public static func send(
        _ server: StubServer, _ method: String, _ path: String,
        headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Fetched {
        guard let url = URL(string: server.baseURL.absoluteString + path) else {
            throw HTTPTestError("bad path \(path)")
        }
        return try await LoopbackClient.send(method, url, headers: headers, body: body)
    }
}

/// The demo stubs of this repository, found as a user would find theirs.
public enum Demo {
    public static func stubs() throws -> URL { try StubsDirectory.locate(named: "Stubs", from: #filePath) }
}
