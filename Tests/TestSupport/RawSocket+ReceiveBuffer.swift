#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension RawSocket {
    /// Shrinks `fd`'s receive buffer to about `bytes`, so a client that stops reading stops the server's
    /// writes soon (the kernel no longer absorbs megabytes of the response).
    public static func setReceiveBuffer(_ fd: Int32, bytes: Int32) {
        #if os(Linux)
            let option = SO_RCVBUF
        #else
            let option: Int32 = 0x1002  // SO_RCVBUF in Darwin's <sys/socket.h>
        #endif
        var value = bytes
        setsockopt(fd, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<Int32>.size))
    }
}
