@testable import StubKit

extension StubServer {
    /// An in-process server on a free loopback port that does not log unmatched requests (these tests
    /// send some on purpose), started. Stop it when done.
    static func startQuietly() throws -> StubServer {
        var configuration = StubServer.Configuration()
        configuration.logsUnmatchedRequests = false
        let server = try StubServer(configuration: configuration)
        try server.start()
        return server
    }
}
