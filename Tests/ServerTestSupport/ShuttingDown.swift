import StubTesting

/// Runs `body`, then shuts `servers` down, also when `body` throws: `await shutdown()` rather than a
/// `defer { stop() }`, which would block one of Swift's few cooperative threads while in-flight
/// responses finish (and, with every core's thread blocked so, stall every other running test).
public func shuttingDown(_ servers: StubServer..., after body: () async throws -> Void) async throws {
    try await shuttingDown(all: servers, after: body)
}

/// `shuttingDown(_:after:)` for an array of servers.
public func shuttingDown(all servers: [StubServer], after body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        for server in servers { await server.shutdown() }
        throw error
    }
    for server in servers { await server.shutdown() }
}
