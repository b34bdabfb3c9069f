#if canImport(Glibc)
    import Glibc
    import CStubSystem
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-blocking, close-on-exec TCP socket. A plain file-descriptor wrapper: whoever owns it
/// closes it exactly once with ``close()``. The server's connections, and (`package`) the WebSocket client's.
package struct Socket: Sendable, Hashable {
    /// The file descriptor.
    package let fd: Int32

    init(fd: Int32) { self.fd = fd }

    /// Opens a listening socket bound to `address` with `SO_REUSEADDR` (and `IPV6_V6ONLY` for IPv6).
    /// - Throws: ``SocketError`` naming the call that failed (`bind` with `EADDRINUSE`, etc.).
    static func listen(on address: SocketAddress, backlog: Int32) throws(SocketError) -> Socket {
        let socket = try bound(to: address)
        do {
            try blockingSyscall(where: "listen") { sysListen(socket.fd, backlog) }
            return socket
        } catch {
            socket.close()
            throw error
        }
    }

    /// Opens a socket bound to `address` with `SO_REUSEADDR` (and `IPV6_V6ONLY` for IPv6), not listening:
    /// it holds the port, so no other socket is given it, and connections to it are refused.
    /// - Throws: ``SocketError`` naming the call that failed.
    static func bound(to address: SocketAddress) throws(SocketError) -> Socket {
        let socket = try open(family: address.family)
        do {
            try socket.setOption(SOL_SOCKET, SO_REUSEADDR, 1)
            if address.family == AF_INET6 { try socket.setOption(Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1) }
            try blockingSyscall(where: "bind") { address.withSockAddr { bind(socket.fd, $0, $1) } }
            return socket
        } catch {
            socket.close()
            throw error
        }
    }

    /// Starts connecting to `address` without waiting: the socket (non-blocking, close-on-exec, safe from
    /// `SIGPIPE`) and whether it is connected already. When it is not, the connection is under way: wait for
    /// the socket to be writable, then read the outcome with ``takePendingError()`` (nil: connected).
    /// - Throws: ``SocketError`` naming `connect` when it fails at once (`ECONNREFUSED` on loopback, say).
    package static func connecting(to address: SocketAddress) throws(SocketError) -> (socket: Socket, connected: Bool) {
        let socket = try open(family: address.family)
        while true {
            let result = address.withSockAddr { sysConnect(socket.fd, $0, $1) }
            if result == 0 { return (socket, true) }
            let code = errno
            if code == EINTR { continue }
            if code == connectInProgress { return (socket, false) }
            socket.close()
            throw SocketError(errno: code, call: "connect")
        }
    }

    private static func open(family: Int32) throws(SocketError) -> Socket {
        #if canImport(Glibc)
            let type = Int32(SOCK_STREAM.rawValue) | cstub_SOCK_NONBLOCK | cstub_SOCK_CLOEXEC
            let fd = try blockingSyscall(where: "socket") { Glibc.socket(family, type, 0) }
            return Socket(fd: fd)
        #else
            let fd = try blockingSyscall(where: "socket") { Darwin.socket(family, SOCK_STREAM, 0) }
            let socket = Socket(fd: fd)
            do { try socket.configureAccepted() } catch { socket.close(); throw error }
            return socket
        #endif
    }

    /// Accepts one pending connection: non-blocking, close-on-exec. `TCP_NODELAY` is left to the
    /// owner (``setNoDelay()``): a connection that writes only once never needs it.
    /// - Returns: `nil` when no connection is pending.
    func accept() throws(SocketError) -> Socket? {
        #if canImport(Glibc)
            let result = try syscall(where: "accept4") {
                cstub_accept4(fd, nil, nil, cstub_SOCK_NONBLOCK | cstub_SOCK_CLOEXEC)
            }
            guard case .processed(let newFD) = result else { return nil }
            return Socket(fd: newFD)
        #else
            let result = try syscall(where: "accept") { Darwin.accept(fd, nil, nil) }
            guard case .processed(let newFD) = result else { return nil }
            let socket = Socket(fd: newFD)
            do { try socket.configureAccepted() } catch { socket.close(); throw error }
            return socket
        #endif
    }

    #if canImport(Darwin)
        /// Darwin has no accept4/SOCK_NONBLOCK: set the flags one by one, and SO_NOSIGPIPE instead of MSG_NOSIGNAL.
        private func configureAccepted() throws(SocketError) {
            let flags = try blockingSyscall(where: "fcntl") { fcntl(fd, F_GETFL) }
            try blockingSyscall(where: "fcntl") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
            try blockingSyscall(where: "fcntl") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
            try setOption(SOL_SOCKET, SO_NOSIGPIPE, 1)
        }
    #endif

    /// Sets an integer socket option.
    func setOption(_ level: Int32, _ name: Int32, _ value: Int32) throws(SocketError) {
        var value = value
        try blockingSyscall(where: "setsockopt") {
            setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Turns Nagle's algorithm off, so small writes behind unacknowledged bytes go out at once.
    /// Errors are ignored: the connection only gets slower without it.
    package func setNoDelay() {
        try? setOption(Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    }

    /// Caps the kernel's send buffer at about `bytes` (`SO_SNDBUF`; Linux doubles it and stops growing it).
    /// Errors are ignored: the buffer only stays as large as the kernel makes it.
    func setSendBuffer(_ bytes: Int) {
        try? setOption(SOL_SOCKET, soSendBuffer, Int32(clamping: bytes))
    }

    /// Reads up to `buffer.count` bytes. `.processed(0)` is end of stream.
    @inline(__always)
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SocketError) -> IOResult<Int> {
        try syscall(where: "read") { sysRead(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes as much of `buffer` as the kernel takes, without raising `SIGPIPE`.
    @inline(__always)
    package func write(_ buffer: UnsafeRawBufferPointer) throws(SocketError) -> IOResult<Int> {
        #if canImport(Glibc)
            try syscall(where: "send") { send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
        #else
            try syscall(where: "send") { send(fd, buffer.baseAddress, buffer.count, 0) }
        #endif
    }

    /// The address the socket is bound to (the real port after binding port 0).
    func localAddress() throws(SocketError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        try blockingSyscall(where: "getsockname") {
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
        }
        guard let address = SocketAddress(storage: storage) else {
            throw SocketError(errno: EAFNOSUPPORT, call: "getsockname")
        }
        return address
    }

    /// The peer's address as `host:port`, or `"unknown"`.
    func remoteAddressDescription() -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard result == 0, let address = SocketAddress(storage: storage) else { return "unknown" }
        return address.description
    }

    /// Shuts down the sending side (sends FIN) so the peer sees the end of the response.
    package func shutdownWrite() {
        #if canImport(Glibc)
            _ = shutdown(fd, Int32(SHUT_WR))
        #else
            _ = shutdown(fd, SHUT_WR)
        #endif
    }

    /// Closes the descriptor. Errors are ignored: after close(2) the descriptor is gone either way.
    package func close() {
        _ = sysClose(fd)
    }
}

extension Socket {
    /// Takes the socket's pending error (`SO_ERROR`), if any: `ECONNRESET` or `EPIPE` once the peer reset
    /// the connection. Reading it clears it. A read does not report it after the peer's FIN was read.
    package func takePendingError() -> Int32? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, soError, &value, &length) == 0 else { return errno }
        return value == 0 ? nil : value
    }
}

extension Socket {
    /// Whether bytes wait to be read: a one-byte peek that takes nothing (the socket is non-blocking).
    /// False at end of stream, when nothing arrived, and on error.
    var hasUnreadInput: Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, peekFlags) > 0
    }
}

extension Socket {
    /// Sets `SO_LINGER` to on with a zero timeout, so that the next `close` resets the connection (RST)
    /// instead of closing it cleanly. Errors are ignored: the close still happens, as a FIN.
    func setLingerZero() {
        // `struct linger` is two C ints on both platforms: l_onoff, then l_linger.
        var value: (Int32, Int32) = (1, 0)
        _ = setsockopt(fd, SOL_SOCKET, soLinger, &value, socklen_t(MemoryLayout<(Int32, Int32)>.size))
    }
}

extension Socket {
    /// Both ends of an accepted connection, or `nil` when either address cannot be read (the peer already
    /// went away, or an address family other than IPv4/IPv6). `listenerLabel`: the accepting listener's label.
    func endpoints(listenerLabel: String? = nil, isSecure: Bool = false) -> HTTPEndpoints? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard result == 0, let remote = SocketAddress(storage: storage), let local = try? localAddress() else {
            return nil
        }
        return HTTPEndpoints(
            remoteAddress: remote.host, localAddress: local.host, localPort: local.port,
            listenerLabel: listenerLabel, isSecure: isSecure)
    }
}

// Constants and system calls, per platform. Darwin's constants are spelled out from <sys/errno.h> and <sys/socket.h>:
// the Darwin type-check's stand-in SDK lacks them.
#if canImport(Glibc)
    /// connect(2)'s answer for a connection under way on a non-blocking socket.
    private let connectInProgress = EINPROGRESS
    private let soSendBuffer = SO_SNDBUF
    private let soError = SO_ERROR
    /// A one-byte peek that does not wait.
    private let peekFlags = Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)
    private let soLinger = SO_LINGER
    @inline(__always) private func sysConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
        -> Int32
    { Glibc.connect(fd, address, length) }
    @inline(__always) private func sysListen(_ fd: Int32, _ backlog: Int32) -> Int32 { Glibc.listen(fd, backlog) }
    @inline(__always) private func sysRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int {
        Glibc.read(fd, p, n)
    }
    @inline(__always) func sysClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
#else
    private let connectInProgress: Int32 = 36  // EINPROGRESS
    private let soSendBuffer: Int32 = 0x1001  // SO_SNDBUF
    private let soError: Int32 = 0x1007  // SO_ERROR
    private let peekFlags: Int32 = 0x2 | 0x80  // MSG_PEEK | MSG_DONTWAIT
    /// `SO_LINGER`. A zero timeout means the same in its ticks as in seconds (`SO_LINGER_SEC`), so the plain option
    /// is enough.
    private let soLinger: Int32 = 0x0080
    @inline(__always) private func sysConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
        -> Int32
    { Darwin.connect(fd, address, length) }
    @inline(__always) private func sysListen(_ fd: Int32, _ backlog: Int32) -> Int32 { Darwin.listen(fd, backlog) }
    @inline(__always) private func sysRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int {
        Darwin.read(fd, p, n)
    }
    @inline(__always) func sysClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
#endif

/// A failed system call: the call's name and the `errno` it left.
///
/// ```swift
/// catch let error as SocketError { print(error) } // "bind failed: Address already in use (errno 98)"
/// ```
public struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` value.
    public let errno: Int32
    /// The system call that failed, e.g. `"bind"`.
    public let call: String

    public init(errno: Int32, call: String) {
        self.errno = errno
        self.call = call
    }

    public var description: String { "\(call) failed: \(SocketError.message(for: errno)) (errno \(errno))" }

    /// The C library's message for an `errno` value.
    static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// The outcome of a non-blocking call: done, or it would have blocked (`EAGAIN`).
package enum IOResult<Value> {
    case processed(Value)
    case wouldBlock
}

extension IOResult: Sendable where Value: Sendable {}

/// The one place system calls go through: retries `EINTR`, maps `EAGAIN`/`EWOULDBLOCK` to
/// ``IOResult/wouldBlock`` and throws every other failure as a ``SocketError`` naming `call`.
///
/// - Parameters:
///   - call: The system call's name, for the error message.
///   - body: Makes the call; a negative result means failure with `errno` set.
@inline(__always)
func syscall<T: FixedWidthInteger>(where call: StaticString, _ body: () -> T) throws(SocketError) -> IOResult<T> {
    while true {
        let result = body()
        if result >= 0 { return .processed(result) }
        let code = errno
        switch code {
        case EINTR: continue
        case EAGAIN, EWOULDBLOCK: return .wouldBlock
        default: throw SocketError(errno: code, call: call.description)
        }
    }
}

/// Like ``syscall(where:_:)`` for calls that never return `EAGAIN` (socket, bind, close...).
@inline(__always)
@discardableResult
func blockingSyscall<T: FixedWidthInteger>(where call: StaticString, _ body: () -> T) throws(SocketError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SocketError(errno: code, call: call.description)
    }
}

/// Writes all of `bytes` to `descriptor` (a log file, stdout, stderr), retrying after `EINTR` and waiting, 100 ms at
/// a time, while a non-blocking descriptor is full. Blocks: call it off the event loops.
/// - Returns: how many bytes were written; fewer than all when the descriptor closed or failed for good.
package func writeFully(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var offset = 0
    while offset < bytes.count {
        #if canImport(Glibc)
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        #else
            let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
        #endif
        if written > 0 {
            offset += written
        } else if written < 0, errno == EINTR {
            continue
        } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, 100)
        } else {
            return offset
        }
    }
    return offset
}
