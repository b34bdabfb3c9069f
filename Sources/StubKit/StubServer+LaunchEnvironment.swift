#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

    /// The variable ``proxyLaunchEnvironment(key:)`` names by default: `STUBSERVER_PROXY`.
    public static let proxyLaunchEnvironmentKey = "STUBSERVER_PROXY"

    /// The environment that makes this server an app's HTTP proxy (``Configuration/forwardProxy``): `[key:
    /// "HOST:PORT"]`, the address of ``baseURL``. The app reads it in debug builds and sets its sessions'
    /// `proxyConfigurations` (iOS 17, macOS 14), so requests to any host, such as a third-party SDK's, come here.
    ///
    /// ```swift
    /// app.launchEnvironment.merge(server.proxyLaunchEnvironment()) { _, new in new }
    /// // In the app: ProcessInfo.processInfo.environment["STUBSERVER_PROXY"] → "127.0.0.1:53127"
    /// ```
    public func proxyLaunchEnvironment(key: String = StubServer.proxyLaunchEnvironmentKey) -> [String: String] {
        StubServer.proxyLaunchEnvironment(baseURL: baseURL, key: key)
    }

    /// `[key: "HOST:PORT"]` of `baseURL`, a server's plain-HTTP base URL.
    public static func proxyLaunchEnvironment(baseURL: URL, key: String) -> [String: String] {
        let host = baseURL.host ?? "127.0.0.1"
        let port = baseURL.port ?? 80
        return [key: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"]
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
