/// A `CONNECT` answered with a tunnel (``HTTPResponder/acceptTunnel(_:as:)``): the `200` is written in plain text,
/// and once it is out the connection reads the client's next bytes as the tunnel says: TLS the server ends with
/// the tunnel's identity, or plain HTTP. Either way they are requests again, parsed, timed out and answered as on
/// any connection, with ``HTTPEndpoints/tunnel`` set (and ``HTTPEndpoints/isSecure`` for TLS). Loop thread only.
extension Connection {
    /// The answer that opens a tunnel: no body, and no `Content-Length` (RFC 9110 §9.3.6).
    static let connectionEstablished = Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8)

    /// Answers request `generation`, a `CONNECT` for `target`, with the `200` that opens `tunnel`, unless it was
    /// answered already or the connection closed. A stopping server closes the connection instead.
    func acceptTunnel(_ tunnel: HTTPTunnel, target: String, generation: UInt64) {
        guard awaitsResponse(generation) else { return }
        if case .tls = tunnel, tls != nil {
            let refusal = HTTPResponse.text(
                "Not Implemented: a TLS tunnel inside a TLS connection; connect to the proxy over plain HTTP\n",
                status: .notImplemented)
            return complete(refusal, generation: generation)
        }
        guard let close = startTunnelResponse() else { return }
        guard !close else { return self.close() }
        pendingTunnel = (tunnel, target)
        enqueue(Self.connectionEstablished)
        flush()
    }

    /// The `200` is out: from now on the connection speaks the tunnel's protocol. Bytes the client sent early,
    /// behind its `CONNECT`, are the tunnel's first.
    func enterTunnel(_ tunnel: HTTPTunnel, target: String) {
        var endpoints = self.endpoints
        endpoints?.tunnel = target
        let early = takeUnparsedInput()
        var session: TLSSession?
        switch tunnel {
        case .tls(let identity):
            guard let made = identity.makeSession() else {
                server.handler.didFailTLS(
                    "the TLS session for the tunnel to \(target) could not be made",
                    remoteAddress: socket.remoteAddressDescription())
                return close()
            }
            session = made
            endpoints?.isSecure = true
        case .http:
            break
        }
        switchToTunnel(session: session, endpoints: endpoints)
        replay(early)
    }

    /// Hands `bytes` on as if just read from the socket, a read buffer's worth at a time.
    private func replay(_ bytes: [UInt8]) {
        var start = 0
        while start < bytes.count && !isClosed {
            let count = min(bytes.count - start, loop.readBuffer.count)
            bytes[start..<start + count].withUnsafeBytes { loop.readBuffer.copyMemory(from: $0) }
            if let tls { readDecrypting(count, tls) } else { received(count) }
            start += count
        }
    }
}
