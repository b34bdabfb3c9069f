/// Where `stubserver health` sends its `GET`: an `http://HOST:PORT` base URL, with `/__admin/health`
/// appended unless the URL already ends with it. Parsed by hand (no Foundation `URL`), so a bad URL gets
/// a message that says what is wrong with it.
///
/// ```swift
/// let url = try HealthURL("http://127.0.0.1:8080")   // GET /__admin/health on 127.0.0.1:8080
/// ```
public struct HealthURL: Sendable, Equatable, CustomStringConvertible {
    /// The host name or address, without the brackets of an IPv6 literal.
    public var host: String
    /// The TCP port.
    public var port: Int
    /// The request target, e.g. `/__admin/health` or `/mock/__admin/health`.
    public var path: String

    /// The admin health route, as WireMock 3 serves it.
    public static let healthPath = "/__admin/health"

    public init(host: String, port: Int, path: String = HealthURL.healthPath) {
        self.host = host
        self.port = port
        self.path = path
    }

    /// Parses `http://HOST[:PORT][/PREFIX]`; `[::1]` for IPv6; the port defaults to 80.
    /// - Throws: ``CLIError`` naming what is wrong.
    public init(_ text: String) throws(CLIError) {
        guard text.hasPrefix("http://") else {
            let hint = text.hasPrefix("https://") ? " (https is not supported: stubserver serves plain HTTP)" : ""
            throw CLIError("health: expected a URL such as http://127.0.0.1:8080, got '\(text)'\(hint)")
        }
        let rest = text.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var prefix = String(rest.dropFirst(authority.count).prefix { $0 != "?" && $0 != "#" })
        var hostPart = Substring(authority)
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw CLIError("health: '\(text)' has an IPv6 address without its closing ']'")
            }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw CLIError("health: unexpected '\(after)' after the address in '\(text)'")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { throw CLIError("health: '\(text)' has no host") }
        var port = 80
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw CLIError("health: the port in '\(text)' must be a number from 1 to 65535, got '\(portText)'")
            }
            port = number
        }
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let path = prefix.hasSuffix(Self.healthPath) ? prefix : prefix + Self.healthPath
        self.init(host: String(hostPart), port: port, path: path)
    }

    /// The URL a server listening on `host`:`port` is probed at: a wildcard address is probed on the
    /// loopback address of its family (`0.0.0.0` → `127.0.0.1`, `::` → `::1`).
    public static func probing(host: String, port: Int) -> HealthURL {
        let probed =
            switch host {
            case "0.0.0.0", "": "127.0.0.1"
            case "::", "[::]": "::1"
            default: host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            }
        return HealthURL(host: probed, port: port)
    }

    /// `http://HOST:PORT/PATH`, with brackets around an IPv6 address.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)\(path)"
    }
}
