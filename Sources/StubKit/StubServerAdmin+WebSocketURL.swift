#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StubServerAdmin {
    /// The `ws://` URL of `path` on this server: ``baseURL`` with the scheme `ws` (`wss` for `https`), and `path`
    /// (with its query, if any) after it. For a WebSocket client in a test (StubTesting's `StubWebSocketClient`),
    /// or an app's launch environment.
    ///
    /// ```swift
    /// server.webSocketURL("/chat?user=ada")   // ws://127.0.0.1:53127/chat?user=ada
    /// ```
    /// Characters a URL may not hold (a space, say) are percent-encoded; `%` escapes already there are kept.
    public func webSocketURL(_ path: String) -> URL {
        var base = baseURL.absoluteString
        if base.hasPrefix("https:") {
            base = "wss:" + base.dropFirst(6)
        } else if base.hasPrefix("http:") {
            base = "ws:" + base.dropFirst(5)
        }
        while base.hasSuffix("/") { base.removeLast() }
        let tail = path.hasPrefix("/") ? path : "/" + path
        return URL(string: base + Self.percentEncodingDisallowed(tail)) ?? baseURL
    }

    /// `text` with every byte a URL's path and query may not hold written `%XX`.
    private static func percentEncodingDisallowed(_ text: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?%".utf8)
        var encoded = ""
        for byte in text.utf8 {
            if allowed.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                encoded += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return encoded
    }
}
