#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Socket {
    /// Sets `SO_LINGER` to on with a zero timeout, so that the next `close` resets the connection (RST)
    /// instead of closing it cleanly. Errors are ignored: the close still happens, as a FIN.
    func setLingerZero() {
        // `struct linger` is two C ints on both platforms: l_onoff, then l_linger.
        var value: (Int32, Int32) = (1, 0)
        _ = setsockopt(fd, SOL_SOCKET, Self.soLinger, &value, socklen_t(MemoryLayout<(Int32, Int32)>.size))
    }

    #if canImport(Glibc)
        private static let soLinger = SO_LINGER
    #else
        /// Darwin's `SO_LINGER` from <sys/socket.h>. A zero timeout means the same in its ticks as in
        /// seconds (`SO_LINGER_SEC`), so the plain option is enough.
        private static let soLinger: Int32 = 0x0080
    #endif
}
