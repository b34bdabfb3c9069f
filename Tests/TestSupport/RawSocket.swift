#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
    import Darwin
    private let streamSocket = SOCK_STREAM
#endif

extension RawSocket {
    /// Flags for send(2) on a test socket: `MSG_NOSIGNAL` on Linux, so a server that closes early makes the
    /// send fail with EPIPE instead of killing the test process with SIGPIPE.
    #if os(Linux)
        public static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        public static let sendFlags: Int32 = 0
    #endif

    /// Darwin has no `MSG_NOSIGNAL`: the socket itself is marked `SO_NOSIGPIPE`. Call on every test socket.
    public static func preventSIGPIPE(_ fd: Int32) {
        #if canImport(Darwin)
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }
}

/// Plain BSD sockets for what HTTP clients will not do: hold a port, send malformed bytes.
public enum RawSocket {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ call: String) { description = "\(call) failed: errno \(errno)" }
        init(description: String) { self.description = description }
    }

    /// Closes a descriptor from ``occupyLoopbackPort(listening:)`` or ``connectLoopback(port:timeoutSeconds:)``
    /// (for test files that do not import the C library).
    public static func closeSocket(_ fd: Int32) {
        _ = close(fd)
    }

    /// Binds (and listens, unless `listening` is false) on 127.0.0.1 with a system-chosen port, so a server
    /// cannot use it. Bound but not listening, the port refuses every connection for as long as the socket is
    /// open: an address where nothing answers, which no other test's server can take meanwhile.
    /// - Returns: the socket (close it when done) and the port.
    public static func occupyLoopbackPort(listening: Bool = true) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw Failure("socket") }
        var address = ipv4Loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, !listening || listen(fd, 1) == 0 else { close(fd); throw Failure("bind/listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { close(fd); throw Failure("getsockname") }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Whether this machine can bind a socket to `::1`.
    public static var ipv6LoopbackAvailable: Bool {
        let fd = socket(AF_INET6, streamSocket, 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        #if canImport(Darwin)
            address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
        #endif
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        } == 0
    }

    /// Connects to 127.0.0.1:`port`, sends `bytes`, and reads until the server closes the connection
    /// or `timeoutSeconds` pass without data (or `limit` bytes have come).
    public static func exchange(port: Int, _ bytes: [UInt8], timeoutSeconds: Int = 5, limit: Int = 1 << 20) throws
        -> [UInt8]
    {
        let fd = try connectLoopback(port: port, timeoutSeconds: timeoutSeconds)
        defer { close(fd) }
        try sendAll(fd, bytes)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while received.count < limit {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }  // 0: closed; -1: timeout or reset
            received += buffer[..<n]
        }
        return received
    }

    /// Whether a socket (without `SO_REUSEADDR`) can bind 127.0.0.1:`port` now: `false` while any socket
    /// holds the port, listening or not. The socket is closed at once.
    public static func canBind(port: Int) -> Bool {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = ipv4Loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0
    }

    /// A blocking TCP socket connected to 127.0.0.1:`port` (close it when done), safe from SIGPIPE;
    /// with `timeoutSeconds`, a read waiting longer than that fails.
    public static func connectLoopback(port: Int, timeoutSeconds: Int? = nil) throws -> Int32 {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw Failure("socket") }
        preventSIGPIPE(fd)
        if let timeoutSeconds {
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = ipv4Loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let failure = Failure("connect")
            close(fd)
            throw failure
        }
        return fd
    }

    /// A blocking TCP socket connected to `host` (an IPv4 or IPv6 address, such as `::1`), `port`; close it when
    /// done. Safe from SIGPIPE.
    public static func openConnection(host: String, port: Int) throws -> Int32 {
        var v4 = ipv4Loopback(port: port)
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            return try connected(AF_INET, &v4)
        }
        var v6 = sockaddr_in6()
        #if canImport(Darwin)
            v6.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
        #endif
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = in_port_t(UInt16(port)).bigEndian
        guard inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 else {
            throw Failure(description: "not an IPv4 or IPv6 address: \(host)")
        }
        return try connected(AF_INET6, &v6)
    }

    /// A socket of `family` connected to `address` (a `sockaddr_in` or `sockaddr_in6`).
    private static func connected<Address>(_ family: Int32, _ address: inout Address) throws -> Int32 {
        let fd = socket(family, streamSocket, 0)
        guard fd >= 0 else { throw Failure("socket") }
        preventSIGPIPE(fd)
        let size = socklen_t(MemoryLayout<Address>.size)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) }
        }
        guard result == 0 else {
            let failure = Failure("connect")
            close(fd)
            throw failure
        }
        return fd
    }

    /// Shuts the sending side of `fd`: the peer reads end of stream.
    public static func shutdownWrite(_ fd: Int32) {
        #if canImport(Glibc)
            shutdown(fd, Int32(SHUT_WR))
        #else
            shutdown(fd, SHUT_WR)
        #endif
    }

    /// Sends every byte of `bytes` on `fd`.
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, sendFlags) }
            guard n > 0 else { throw Failure("send") }
            sent += n
        }
    }

    /// A connected pair of TCP sockets on 127.0.0.1 (blocking; close both when done).
    public static func connectedLoopbackPair() throws -> (Int32, Int32) {
        let (listener, port) = try occupyLoopbackPort()
        defer { close(listener) }
        let client = try connectLoopback(port: port)
        var peer = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let server = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
        }
        guard server >= 0 else { close(client); throw Failure("accept") }
        preventSIGPIPE(server)
        return (server, client)
    }

    private static func ipv4Loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }
}
