#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Socket {
    /// Whether bytes wait to be read: a one-byte peek that takes nothing (the socket is non-blocking).
    /// False at end of stream, when nothing arrived, and on error.
    var hasUnreadInput: Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Self.peekFlags) > 0
    }

    #if canImport(Glibc)
        private static let peekFlags = Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)
    #else
        /// Darwin's `MSG_PEEK | MSG_DONTWAIT` from <sys/socket.h>.
        private static let peekFlags: Int32 = 0x2 | 0x80
    #endif
}
