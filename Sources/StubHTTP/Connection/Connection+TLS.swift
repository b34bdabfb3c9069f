/// The read side of a TLS connection (Linux): ciphertext from the socket goes into the session, plaintext comes
/// out into the loop's read buffer and takes the same way as a plain connection's bytes (``received(_:)``).
/// Writing goes through the session in ``OutputBuffer/write(to:through:)``.
///
/// A handshake counts against the header read timeout from its first byte, as a request head does. A client
/// that speaks plain HTTP to the TLS port is answered in plain text (400, saying to use `https://`) and closed;
/// a failed handshake or a bad record closes the connection; both are reported to the handler
/// (``HTTPHandler/didFailTLS(_:remoteAddress:)``) for its log. Loop thread only.
extension Connection {
    /// `count` bytes of ciphertext are at the start of the loop's read buffer.
    func readDecrypting(_ count: Int, _ tls: TLSSession) {
        let bytes = UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count])
        if !tls.hasInput {
            if Self.looksLikePlainHTTP(bytes) { return refusePlainHTTP() }
            handshakeStarted()
        }
        guard tls.feed(bytes) else { return failTLS("the TLS input could not be buffered") }
        // The read buffer is free again: the session copied the ciphertext. Each round decrypts what was fed;
        // handing plaintext on may answer (and write) at once, or close the connection.
        while !isClosed {
            switch tls.read(into: loop.readBuffer) {
            case .plaintext(let plaintext):
                received(plaintext)
            case .needsMore:
                return sendHandshakeOutput(tls)
            case .closed:
                sendHandshakeOutput(tls)
                return inputEnded()
            case .failed(let reason):
                return failTLS(tls.isEstablished ? reason : "handshake failed: \(reason)")
            }
        }
    }

    /// Sends what the session has to say (its handshake records, session tickets, alerts), waiting for the
    /// socket to take the rest.
    private func sendHandshakeOutput(_ tls: TLSSession) {
        guard !isClosed, !watchingWritable else { return }  // a blocked flush sends it when the socket takes more
        do {
            if try !tls.sendPending(to: socket) { flush() }
        } catch {
            close()
        }
    }

    /// The TLS session failed: sends its alert if the socket takes it, tells the handler, closes.
    private func failTLS(_ reason: String) {
        if let tls { _ = try? tls.sendPending(to: socket) }
        server.handler.didFailTLS(reason, remoteAddress: socket.remoteAddressDescription())
        close()
    }

    /// A request in plain HTTP on the TLS port: answered in plain text, as nginx does, then closed.
    private func refusePlainHTTP() {
        let response = HTTPResponse.text("This port speaks HTTPS: use https:// for this URL.\n", status: .badRequest)
        var bytes: [UInt8] = []
        ResponseSerializer.serialize(
            response, context: ResponseContext(close: true), dateLine: loop.dateCache.currentLine(), into: &bytes)
        OutputBuffer.writeWhatTheSocketTakes(bytes, to: socket)
        server.handler.didFailTLS(
            "a plain HTTP request on the HTTPS port was answered 400", remoteAddress: socket.remoteAddressDescription())
        socket.shutdownWrite()
        close()
    }

    /// Whether the first bytes of a connection are an HTTP request line's (an upper-case method, a space) and
    /// not a TLS record (whose first byte is 22, a handshake).
    static func looksLikePlainHTTP(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return false }
        for byte in bytes.prefix(16).dropFirst() {
            if byte == UInt8(ascii: " ") { return true }
            guard byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") else { return false }
        }
        return bytes.count < 16
    }
}
