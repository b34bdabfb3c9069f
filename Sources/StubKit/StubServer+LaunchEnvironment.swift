extension StubServer {
    /// The environment that points an app (or any process) at this server: `[key: baseURL]`.
    ///
    /// It lives in StubKit, not StubTesting, because nothing in it is specific to a test framework:
    /// the same dictionary fits `XCUIApplication.launchEnvironment`, `Process.environment` and
    /// `simctl launch` alike.
    ///
    /// ```swift
    /// let app = XCUIApplication()
    /// app.launchEnvironment.merge(server.launchEnvironment()) { _, new in new }
    /// app.launch()
    /// // In the app: ProcessInfo.processInfo.environment["BASEURL"] → "http://127.0.0.1:53127"
    /// ```
    ///
    /// With virtual hosts (``Configuration/virtualHosts``), one more variable per host carries its base URL,
    /// named by ``launchEnvironmentKey(forHost:)``: `STUBSERVER_HOST_API_EXAMPLE_COM` →
    /// `http://127.0.0.1:53128` for `api.example.com`.
    ///
    /// With HTTPS beside plain HTTP (``Configuration/https``), each variable has an `_HTTPS` twin with the
    /// `https://` URL (`BASEURL_HTTPS`, `STUBSERVER_HOST_API_EXAMPLE_COM_HTTPS`).
    ///
    /// - Parameter key: the variable the app reads its base URL from. Default `BASEURL`.
    /// - Returns: `[key: baseURL.absoluteString]`, e.g. `["BASEURL": "http://127.0.0.1:53127"]`, and each
    ///   virtual host's variable.
    public func launchEnvironment(key: String = "BASEURL") -> [String: String] {
        StubServerHost.launchEnvironment(of: hosts, key: key)
    }

}

extension StubServerHost {
    /// The launch environment that points an app at a server with these `hosts`: the primary one's base URL
    /// under `key`, each virtual host's under ``StubServer/launchEnvironmentKey(forHost:)``, and with HTTPS beside
    /// plain HTTP, the `https://` URL of each under the same name + `_HTTPS`.
    public static func launchEnvironment(of hosts: [StubServerHost], key: String) -> [String: String] {
        var environment: [String: String] = [:]
        for host in hosts {
            let name = host.name.map(StubServer.launchEnvironmentKey(forHost:)) ?? key
            environment[name] = host.baseURL.absoluteString
            if let https = host.httpsBaseURL { environment[name + "_HTTPS"] = https.absoluteString }
        }
        return environment
    }
}
