#if canImport(Glibc) && !Slim
    import CStubSystem
#endif

/// One connection's TLS: a session of the TLS library over memory buffers, which never touches the socket. The
/// connection reads ciphertext from its socket into ``feed(_:)``, takes plaintext out with ``read(into:)``, and
/// writes plaintext through ``write(_:to:)``, which encrypts a record at a time and sends what the socket takes;
/// ciphertext the socket did not take waits here (one record's worth at most: nothing more is encrypted until it
/// is sent), so a reader that stalls holds back the plaintext in the connection's ``OutputBuffer``, as without
/// TLS. Loop thread only.
final class TLSSession {
    /// What ``read(into:)`` found.
    enum Input: Equatable {
        /// This many bytes of plaintext are at the start of the buffer.
        case plaintext(Int)
        /// Nothing more until more ciphertext is fed.
        case needsMore
        /// The peer ended the session (close_notify): as a TCP end of stream.
        case closed
        /// The handshake or a record failed: the reason, as the TLS library words it.
        case failed(String)
    }

    /// The most plaintext encrypted per ``write(_:to:)``: one TLS record.
    static let recordSize = 16 * 1024
    /// Ciphertext taken out of the session and not yet sent; allocated while something waits.
    private var staged: UnsafeMutableRawBufferPointer?
    private var stagedStart = 0
    private var stagedEnd = 0
    /// Whether the first byte was read: a plain-HTTP request on the TLS port is told apart by it.
    private(set) var hasInput = false

    #if canImport(Glibc) && !Slim
        private let handle: UnsafeMutableRawPointer
        /// Keeps the context (and its `SSL_CTX`) alive as long as the session.
        private let context: TLSContext

        init?(context: TLSContext) {
            guard let handle = cstub_tls_session_new(context.handle) else { return nil }
            self.handle = handle
            self.context = context
        }

        deinit {
            cstub_tls_session_free(handle)
            staged?.deallocate()
        }

        /// Gives ciphertext read from the socket to the session; false when it could not be buffered.
        func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
            hasInput = true
            return cstub_tls_feed(handle, base.assumingMemoryBound(to: UInt8.self), bytes.count) == 0
        }

        /// Decrypts what was fed into `buffer`.
        func read(into buffer: UnsafeMutableRawBufferPointer) -> Input {
            let count = cstub_tls_read(handle, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count)
            switch count {
            case 0: return .needsMore
            case -1: return .closed
            case ..<0: return .failed(Self.lastError())
            default: return .plaintext(Int(count))
            }
        }

        /// Whether the handshake is complete.
        var isEstablished: Bool { cstub_tls_handshake_done(handle) != 0 }

        /// Queues a close_notify alert, sent by the next ``sendPending(to:)``.
        func shutdown() { cstub_tls_shutdown(handle) }

        private func encrypt(_ plaintext: UnsafeRawBufferPointer) -> Bool {
            guard let base = plaintext.baseAddress else { return true }
            return cstub_tls_write(handle, base.assumingMemoryBound(to: UInt8.self), plaintext.count) == 0
        }

        private func takeOutput(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            cstub_tls_take_output(handle, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count)
        }

        private static func lastError() -> String {
            var buffer = [CChar](repeating: 0, count: 256)
            cstub_tls_last_error(&buffer, buffer.count)
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    #else
        /// Apple platforms serve HTTPS through Network.framework (`NetworkTLSFrontend.swift`), and the Slim build
        /// not at all: no session is ever made.
        init?(context: TLSContext) { nil }
        func feed(_ bytes: UnsafeRawBufferPointer) -> Bool { false }
        func read(into buffer: UnsafeMutableRawBufferPointer) -> Input { .failed("no TLS library") }
        var isEstablished: Bool { false }
        func shutdown() {}
        private func encrypt(_ plaintext: UnsafeRawBufferPointer) -> Bool { false }
        private func takeOutput(into buffer: UnsafeMutableRawBufferPointer) -> Int { 0 }
    #endif

    /// Encrypts up to a record of `plaintext` and sends what `socket` takes: `.processed(n)`, `n` bytes of
    /// plaintext taken (their ciphertext sent or waiting here); `.wouldBlock` when earlier ciphertext still waits.
    func write(_ plaintext: UnsafeRawBufferPointer, to socket: Socket) throws(SocketError) -> IOResult<Int> {
        guard try sendPending(to: socket) else { return .wouldBlock }
        let taken = UnsafeRawBufferPointer(rebasing: plaintext.prefix(Self.recordSize))
        guard encrypt(taken) else { throw SocketError(errno: 0, call: "TLS write") }
        _ = try sendPending(to: socket)
        return .processed(taken.count)
    }

    /// Sends the ciphertext that waits (handshake records, data, alerts); true when none is left.
    func sendPending(to socket: Socket) throws(SocketError) -> Bool {
        while true {
            if stagedStart == stagedEnd {
                let buffer = staged ?? .allocate(byteCount: Self.recordSize + 1024, alignment: 1)
                stagedStart = 0
                stagedEnd = takeOutput(into: buffer)
                guard stagedEnd > 0 else {
                    buffer.deallocate()
                    staged = nil
                    return true
                }
                staged = buffer
            }
            guard let staged else { return true }
            let result = try socket.write(UnsafeRawBufferPointer(rebasing: staged[stagedStart..<stagedEnd]))
            switch result {
            case .processed(let count): stagedStart += count
            case .wouldBlock: return false
            }
        }
    }
}
