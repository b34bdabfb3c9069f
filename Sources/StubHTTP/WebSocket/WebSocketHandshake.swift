/// The server's side of the WebSocket opening handshake (RFC 6455 §4.2), as pure functions over an
/// ``HTTPRequest``: whether a request asks for a WebSocket, and the answer to it.
///
/// ```swift
/// guard WebSocketHandshake.isUpgradeRequest(request) else { return serveHTTP(request) }
/// switch WebSocketHandshake.answer(request, subprotocols: ["chat"]) {
/// case .accept(let response, let subprotocol): switchProtocols(response, subprotocol)
/// case .reject(let response, _): respond(response)   // 400 or 426, then close
/// }
/// ```
public enum WebSocketHandshake {
    /// The GUID RFC 6455 §1.3 appends to the client's key.
    public static let keyGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The only protocol version this server speaks (RFC 6455 §4.1).
    public static let version = "13"

    /// What the server answers an upgrade request with.
    public enum Answer: Sendable, Hashable {
        /// The `101 Switching Protocols` head to send (no body), and the subprotocol it selected, if any.
        case accept(HTTPResponse, subprotocol: String?)
        /// The error response to send before closing (400, or 426 for a version other than 13, with
        /// `Sec-WebSocket-Version: 13`), and why.
        case reject(HTTPResponse, reason: String)
    }

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`: base64(SHA-1(key + ``keyGUID``)).
    public static func acceptValue(forKey key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + keyGUID).utf8)))
    }

    /// Whether `request` asks to become a WebSocket: its `Upgrade` field lists `websocket`. Such a request is
    /// answered by ``answer(_:subprotocols:)``, even when it is malformed.
    public static func isUpgradeRequest(_ request: HTTPRequest) -> Bool {
        request.headers.containsToken("websocket", in: "Upgrade")
    }

    /// The answer to an upgrade request (RFC 6455 §4.2.1): a `GET` over HTTP/1.1 with `Upgrade: websocket`,
    /// `Connection: Upgrade`, `Sec-WebSocket-Version: 13` and a `Sec-WebSocket-Key` of 16 base64-encoded bytes.
    /// - Parameters:
    ///   - request: the request as parsed.
    ///   - subprotocols: the subprotocols the server speaks, preferred first; the first the client offers in
    ///     `Sec-WebSocket-Protocol` is selected. None offered in common: no subprotocol.
    public static func answer(_ request: HTTPRequest, subprotocols: [String] = []) -> Answer {
        let headers = request.headers
        guard request.method == .get else {
            return reject("a WebSocket upgrade must be a GET request, not \(request.method)")
        }
        guard request.version == .http1_1 else {
            return reject("a WebSocket upgrade needs HTTP/1.1, not \(request.version)")
        }
        guard headers.containsToken("websocket", in: "Upgrade") else {
            return reject("a WebSocket upgrade needs 'Upgrade: websocket'")
        }
        guard headers.containsToken("upgrade", in: "Connection") else {
            return reject("a WebSocket upgrade needs 'Connection: Upgrade'")
        }
        let versions = headers["Sec-WebSocket-Version"]
        guard versions.count == 1, versions[0].trimmingSpaces() == version else {
            var response = HTTPResponse.text(
                "unsupported WebSocket version \(versions.isEmpty ? "(none)" : versions.joined(separator: ", ")): "
                    + "this server speaks version 13\n",
                status: HTTPStatus(code: 426))
            response.headers.add(name: "Sec-WebSocket-Version", value: version)
            return .reject(response, reason: "Sec-WebSocket-Version is not 13")
        }
        let keys = headers["Sec-WebSocket-Key"]
        guard keys.count == 1 else {
            return reject("a WebSocket upgrade needs exactly one Sec-WebSocket-Key field, not \(keys.count)")
        }
        let key = String(keys[0].trimmingSpaces())
        // 16 bytes are 24 characters with padding (RFC 6455 §4.1); the decoder alone would allow less.
        guard key.utf8.count == 24, let nonce = try? Base64.decode(key), nonce.count == 16 else {
            return reject("Sec-WebSocket-Key '\(key)' is not 16 bytes in base64 (24 characters)")
        }
        var response = HTTPResponse(status: HTTPStatus(code: 101))
        response.headers.add(name: "Upgrade", value: "websocket")
        response.headers.add(name: "Connection", value: "Upgrade")
        response.headers.add(name: "Sec-WebSocket-Accept", value: acceptValue(forKey: key))
        let selected = selectSubprotocol(offered: headers["Sec-WebSocket-Protocol"], supported: subprotocols)
        if let selected { response.headers.add(name: "Sec-WebSocket-Protocol", value: selected) }
        return .accept(response, subprotocol: selected)
    }

    /// The first of `supported` listed in the client's `Sec-WebSocket-Protocol` fields (compared exactly).
    static func selectSubprotocol(offered fields: [String], supported: [String]) -> String? {
        let offered = fields.flatMap { $0.split(separator: ",").map { String($0.trimmingSpaces()) } }
        return supported.first { offered.contains($0) }
    }

    private static func reject(_ reason: String) -> Answer {
        .reject(.text(reason + "\n", status: .badRequest), reason: reason)
    }
}
