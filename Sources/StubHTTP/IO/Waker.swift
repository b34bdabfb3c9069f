#if canImport(Glibc)
    import Glibc
    import CStubSystem
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wakes a sleeping selector from another thread: an eventfd on Linux, a pipe elsewhere (and in Linux test
/// runs emulating Darwin, see ``DarwinEmulation``).
package struct Waker: Sendable {
    /// The descriptor the selector watches for readability.
    package let readFD: Int32
    private let writeFD: Int32

    /// - Parameter pipe: use a pipe even where an eventfd is available.
    package init(pipe usePipe: Bool = false) throws(SocketError) {
        #if os(Linux)
            if !usePipe {
                let fd = try blockingSyscall(where: "eventfd") { eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK)) }
                readFD = fd
                writeFD = fd
                return
            }
        #endif
        var fds: [Int32] = [0, 0]
        try blockingSyscall(where: "pipe") { pipe(&fds) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    /// Whether this is a pipe (two descriptors) rather than an eventfd.
    var isPipe: Bool { readFD != writeFD }

    /// Makes the read side readable. Never blocks; a full pipe already means "awake".
    package func wake() {
        if isPipe {
            var one: UInt8 = 1
            _ = write(writeFD, &one, 1)
        } else {
            // An eventfd takes exactly 8 bytes.
            var one: UInt64 = 1
            _ = write(writeFD, &one, 8)
        }
    }

    /// Drains pending wake-ups.
    package func drain() {
        var buffer: (UInt64, UInt64) = (0, 0)
        while withUnsafeMutableBytes(of: &buffer, { read(readFD, $0.baseAddress, $0.count) }) > 0 {}
    }

    package func close() {
        _ = sysClose(readFD)
        if writeFD != readFD { _ = sysClose(writeFD) }
    }
}
