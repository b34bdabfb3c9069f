/// The admin API's access rules from a server's configuration: the admin API (`Admin/`) is given these values
/// and never reads ``StubServer/Configuration`` itself.
extension AdminAccess {
    /// The rules ``StubServer/Configuration/adminToken``, ``StubServer/Configuration/host`` and
    /// ``StubServer/Configuration/allowedHosts`` make.
    init(_ configuration: StubServer.Configuration) {
        self.init(token: configuration.adminToken, host: configuration.host, allowedHosts: configuration.allowedHosts)
    }

    /// The warning that `configuration` exposes its admin API to the network without a token; `nil` when it
    /// does not (``StubServer/Configuration/adminAPIEnabled`` off, a token, or a loopback address).
    static func exposureWarning(_ configuration: StubServer.Configuration) -> String? {
        guard configuration.adminAPIEnabled else { return nil }
        return exposureWarning(host: configuration.host, token: configuration.adminToken)
    }
}
