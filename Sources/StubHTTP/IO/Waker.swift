#if canImport(Glibc)
import Glibc
import CStubSystem
#elseif canImport(Darwin)
import Darwin
#endif

/// Wakes a sleeping selector from another thread: an eventfd on Linux, a pipe elsewhere.
struct Waker: Sendable {
    /// The descriptor the selector watches for readability.
    let readFD: Int32
    private let writeFD: Int32

    init() throws(SocketError) {
        #if os(Linux)
        let fd = try blockingSyscall(where: "eventfd") { eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK)) }
        readFD = fd
        writeFD = fd
        #else
        var fds: [Int32] = [0, 0]
        try blockingSyscall(where: "pipe") { pipe(&fds) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
        #endif
    }

    /// Makes the read side readable. Never blocks; a full pipe already means "awake".
    func wake() {
        #if os(Linux)
        var one: UInt64 = 1
        _ = write(writeFD, &one, 8)
        #else
        var one: UInt8 = 1
        _ = write(writeFD, &one, 1)
        #endif
    }

    /// Drains pending wake-ups.
    func drain() {
        var buffer: (UInt64, UInt64) = (0, 0)
        while withUnsafeMutableBytes(of: &buffer, { read(readFD, $0.baseAddress, $0.count) }) > 0 {}
    }

    func close() {
        _ = sysClose(readFD)
        if writeFD != readFD { _ = sysClose(writeFD) }
    }
}
