#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Socket {
    /// Takes the socket's pending error (`SO_ERROR`), if any: `ECONNRESET` or `EPIPE` once the peer reset
    /// the connection. Reading it clears it. A read does not report it after the peer's FIN was read.
    package func takePendingError() -> Int32? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, Self.soError, &value, &length) == 0 else { return errno }
        return value == 0 ? nil : value
    }

    #if canImport(Glibc)
        private static let soError = SO_ERROR
    #else
        /// Darwin's `SO_ERROR` from <sys/socket.h>.
        private static let soError: Int32 = 0x1007
    #endif
}
