import Foundation
import StubHTTP

/// The client's side of the opening handshake (RFC 6455 §4.1), as pure values: the upgrade request for a URL,
/// and the check of the server's answer. The server's side is StubHTTP's `WebSocketHandshake`, whose accept value
/// this checks against.
struct ClientHandshake: Sendable {
    /// Where to connect, from a `ws://` URL.
    struct Endpoint: Sendable, Hashable {
        /// The host as the URL has it, without brackets (`127.0.0.1`, `::1`, `localhost`).
        var host: String
        var port: Int
        /// The request target: the path, percent-encoded as in the URL, and the query (`/chat?user=ada`).
        var target: String

        /// `host:port` for the `Host` field, IPv6 addresses in brackets (the port always written).
        var hostField: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// The fields the handshake sets itself: a test may not send its own (a raw socket can, for the server's
    /// error answers).
    static let reservedFields = [
        "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
        "sec-websocket-protocol"
    ]

    /// The longest response head read, in bytes (as the server's own limit on a request head).
    static let maxHeadBytes = 64 << 10

    let url: URL
    let endpoint: Endpoint
    /// The `Sec-WebSocket-Key`: 16 random bytes in base64.
    let key: String
    let subprotocols: [String]
    /// The request's bytes.
    let request: [UInt8]

    /// The handshake for `url` with `headers` added and `subprotocols` offered, preferred first.
    /// - Throws: ``StubWebSocketClient/Failure/Kind/invalidRequest`` for a URL that is not `ws://host[:port]/…`,
    ///   a header the handshake sets itself, or a name or value that cannot be sent.
    init(url: URL, headers: [String: String], subprotocols: [String]) throws(StubWebSocketClient.Failure) {
        self.url = url
        endpoint = try Self.endpoint(of: url)
        self.subprotocols = subprotocols
        var nonce = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in nonce.indices { nonce[index] = generator.next() }
        key = Base64.encode(nonce)
        for protocolName in subprotocols where !Self.isToken(protocolName) {
            throw Self.invalid(url, "the subprotocol \"\(protocolName)\" is not an HTTP token")
        }
        var fields: [(String, String)] = [("Host", endpoint.hostField)]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard Self.isToken(name) else {
                throw Self.invalid(url, "the header name \"\(name)\" is not an HTTP token")
            }
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw Self.invalid(url, "the value of header \(name) has a line break or NUL")
            }
            let lowercased = name.lowercased()
            if lowercased == "sec-websocket-protocol" {
                throw Self.invalid(url, "offer subprotocols with `subprotocols:`, not a Sec-WebSocket-Protocol header")
            }
            if Self.reservedFields.contains(lowercased) {
                throw Self.invalid(
                    url, "the header \(name) is the handshake's own (send a malformed handshake from a raw socket)")
            }
            if lowercased == "host" {
                fields[0] = (name, value)
            } else {
                fields.append((name, value))
            }
        }
        fields += [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", key),
            ("Sec-WebSocket-Version", WebSocketHandshake.version)
        ]
        if !subprotocols.isEmpty { fields.append(("Sec-WebSocket-Protocol", subprotocols.joined(separator: ", "))) }
        let head = "GET \(endpoint.target) HTTP/1.1\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
        request = Array(head.utf8)
    }

    /// The host, port and target of a `ws://` URL.
    static func endpoint(of url: URL) throws(StubWebSocketClient.Failure) -> Endpoint {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw invalid(url, "the URL cannot be read")
        }
        switch components.scheme?.lowercased() {
        case "ws": break
        case "wss":
            throw invalid(url, "wss:// (WebSocket over TLS) is not supported yet: the stub server speaks plain ws://")
        default:
            throw invalid(
                url,
                "the URL's scheme is not ws:// (server.webSocketURL(\"/path\") gives a stub server's ws:// URL)")
        }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw invalid(url, "the URL has no host") }
        let port = components.port ?? 80
        guard (1...65535).contains(port) else { throw invalid(url, "the port \(port) is not 1–65535") }
        var target = components.percentEncodedPath
        if target.isEmpty { target = "/" }
        if let query = components.percentEncodedQuery { target += "?" + query }
        guard !target.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw invalid(url, "the URL's path or query has a space or control character")
        }
        return Endpoint(host: host, port: port, target: target)
    }

    /// The index just past the blank line that ends a response head in `bytes` (`\r\n\r\n`, or `\n\n`).
    static func headEnd(in bytes: [UInt8]) -> Int? {
        var index = 0
        while let newline = bytes[index...].firstIndex(of: 0x0A) {
            let next = newline + 1
            if next < bytes.count, bytes[next] == 0x0A { return next + 1 }
            if next + 1 < bytes.count, bytes[next] == 0x0D, bytes[next + 1] == 0x0A { return next + 2 }
            index = next
        }
        return nil
    }

    /// A response head: the status line and the fields, in order.
    struct ResponseHead: Sendable {
        var status: Int
        var statusLine: String
        var fields: [(name: String, value: String)]

        /// The values of the fields named `name` (any case).
        func values(_ name: String) -> [String] {
            fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }

        /// Whether a comma-separated field named `name` lists `token` (any case).
        func lists(_ token: String, in name: String) -> Bool {
            values(name).contains { value in
                value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == token }
            }
        }

        /// The `Content-Length`, if there is exactly one that reads as a number.
        var contentLength: Int? {
            let lengths = values("Content-Length")
            guard lengths.count == 1 else { return nil }
            return Int(lengths[0].trimmingCharacters(in: .whitespaces))
        }
    }

    /// Reads a response head (without its blank line).
    /// - Throws: ``StubWebSocketClient/Failure/Kind/invalidHandshake`` when it is not HTTP/1.x.
    func parseHead(_ bytes: ArraySlice<UInt8>) throws(StubWebSocketClient.Failure) -> ResponseHead {
        // Split as bytes: in a String, "\r\n" is one Character, which no "\n" separator matches.
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        let statusLine = lines.first ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]) else {
            throw failure(.invalidHandshake, "answered with something other than HTTP: \"\(statusLine.prefix(80))\"")
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon > line.startIndex else {
                throw failure(.invalidHandshake, "answered with a header line without a name: \"\(line.prefix(80))\"")
            }
            fields.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return ResponseHead(status: status, statusLine: statusLine, fields: fields)
    }

    /// Checks a `101` answer (RFC 6455 §4.1, the client's checks); returns the subprotocol the server chose.
    /// - Throws: ``StubWebSocketClient/Failure/Kind/invalidHandshake`` naming what is wrong.
    func verify(_ head: ResponseHead) throws(StubWebSocketClient.Failure) -> String? {
        guard head.lists("websocket", in: "Upgrade") else {
            throw failure(.invalidHandshake, "answered 101 without \"Upgrade: websocket\"")
        }
        guard head.lists("upgrade", in: "Connection") else {
            throw failure(.invalidHandshake, "answered 101 without \"Connection: Upgrade\"")
        }
        let expected = WebSocketHandshake.acceptValue(forKey: key)
        let accepts = head.values("Sec-WebSocket-Accept")
        guard accepts == [expected] else {
            throw failure(
                .invalidHandshake,
                "answered 101 with Sec-WebSocket-Accept \(accepts.isEmpty ? "missing" : "\"\(accepts.joined(separator: ", "))\""), "
                    + "not \"\(expected)\" for the key \"\(key)\"")
        }
        let extensions = head.values("Sec-WebSocket-Extensions")
        guard extensions.isEmpty else {
            throw failure(
                .invalidHandshake,
                "answered 101 with the extension \"\(extensions.joined(separator: ", "))\", which the client did not offer"
            )
        }
        let chosen = head.values("Sec-WebSocket-Protocol")
        guard let subprotocol = chosen.first else { return nil }
        guard chosen.count == 1, subprotocols.contains(subprotocol) else {
            throw failure(
                .invalidHandshake,
                "answered 101 with the subprotocol \"\(chosen.joined(separator: ", "))\", which the client did not offer"
                    + (subprotocols.isEmpty ? "" : " (it offered \(subprotocols.joined(separator: ", ")))"))
        }
        return subprotocol
    }

    /// A failure about this handshake: "ws://127.0.0.1:53127/chat " + `what`.
    func failure(_ kind: StubWebSocketClient.Failure.Kind, _ what: String) -> StubWebSocketClient.Failure {
        StubWebSocketClient.Failure(kind, "\(url.absoluteString) \(what)")
    }

    private static func invalid(_ url: URL, _ why: String) -> StubWebSocketClient.Failure {
        StubWebSocketClient.Failure(.invalidRequest, "cannot open a WebSocket to \(url.absoluteString): \(why)")
    }

    /// Whether `text` is an HTTP token (RFC 9110 §5.6.2): letters, digits and ``!#$%&'*+-.^_`|~``.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
    }
}
