import StubTesting

/// A started server that logs nothing (no unmatched-request lines, no log sink output), with the default
/// configuration otherwise; shut it down with ``shuttingDown(_:after:)``.
public func startQuietServer() throws -> StubServer {
    var configuration = StubServer.Configuration()
    configuration.logsUnmatchedRequests = false
    configuration.log = LogSink(.handler { _ in })
    let server = try StubServer(configuration: configuration)
    try server.start()
    return server
}
