import StubTesting

/// A started server that logs nothing (no unmatched-request lines, no log sink output), with the default
/// configuration otherwise (as `configure` changes it); shut it down with ``shuttingDown(_:after:)``.
public func startQuietServer(_ configure: (inout StubServer.Configuration) -> Void = { _ in }) throws -> StubServer {
    var configuration = StubServer.Configuration()
    configuration.logsUnmatchedRequests = false
    configuration.log = LogSink(.handler { _ in })
    configure(&configuration)
    let server = try StubServer(configuration: configuration)
    try server.start()
    return server
}
