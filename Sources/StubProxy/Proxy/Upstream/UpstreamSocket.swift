import StubHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-blocking TCP connection to a plain-HTTP upstream: resolving, connecting, reading and writing,
/// each one system call that never waits (the ``UpstreamPoller`` does the waiting, in `poll(2)`).
struct UpstreamSocket {
    /// What one read or write did.
    enum Step: Equatable {
        case done(Int)
        case wouldBlock
        case failed(Int32)
    }

    let fd: Int32

    /// The addresses of `host` (a name, or an IPv4/IPv6 literal, with or without brackets) and `port`,
    /// in the system's order; or why there are none. Blocks for a DNS lookup: call off the event loops.
    static func resolve(host: String, port: Int) -> Result<[SocketAddress], UpstreamSocketError> {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return SocketAddress.lookUp(name: name, port: port, limit: 8).mapError {
            UpstreamSocketError("unknown host \(name) (\($0.reason))")
        }
    }

    /// A connection attempt: a socket whose connection is under way (or made already), or the `errno`.
    enum Attempt {
        case started(UpstreamSocket)
        case failed(Int32)
    }

    /// Starts connecting to `address`.
    static func connect(to address: SocketAddress) -> Attempt {
        #if canImport(Glibc)
            let fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(address.family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return .failed(errno) }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let result = address.withSockAddr { systemConnect(fd, $0, $1) }
        if result == 0 || errno == connectInProgress || errno == EINTR { return .started(UpstreamSocket(fd: fd)) }
        let code = errno
        _ = closeDescriptor(fd)
        return .failed(code)
    }

    /// The outcome of a connection that was under way: 0 once connected, else its `errno`.
    func connectionError() -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, pendingErrorOption, &code, &length) == 0 else { return errno }
        return code
    }

    /// Sends as much of `bytes` as the kernel takes, never raising SIGPIPE.
    func send(_ bytes: ArraySlice<UInt8>) -> Step {
        let count = bytes.withUnsafeBytes { buffer -> Int in
            #if canImport(Glibc)
                Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            #else
                Darwin.send(fd, buffer.baseAddress, buffer.count, 0)
            #endif
        }
        return Self.step(count)
    }

    /// Reads up to `buffer.count` bytes; `.done(0)` is the end of the connection.
    func receive(into buffer: inout [UInt8]) -> Step {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return Self.step(count)
    }

    func close() { _ = Self.closeDescriptor(fd) }

    private static func step(_ count: Int) -> Step {
        if count >= 0 { return .done(count) }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? .wouldBlock : .failed(code)
    }

    private static func closeDescriptor(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(fd)
        #else
            Darwin.close(fd)
        #endif
    }

    /// `Connection refused (errno 111)`: an `errno` in words, for the 502's body.
    static func describe(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}

/// Why an upstream could not be reached, in words.
struct UpstreamSocketError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}

// `EINPROGRESS` and `SO_ERROR`: Darwin's values are spelled out (sys/errno.h, sys/socket.h) because the
// stand-in Darwin SDK of the Linux-side type-check does not declare them.
#if canImport(Glibc)
    private let connectInProgress = EINPROGRESS
    private let pendingErrorOption = SO_ERROR
#else
    private let connectInProgress: Int32 = 36
    private let pendingErrorOption: Int32 = 0x1007
#endif

@inline(__always)
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
        Glibc.connect(fd, address, length)
    #else
        Darwin.connect(fd, address, length)
    #endif
}
