#if canImport(Glibc)
    import Glibc
    import CStubSystem  // sys/socket.h's SOCK_* constants are attributed to this module
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 socket address.
package enum SocketAddress: Sendable, CustomStringConvertible {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    /// The port, in host byte order.
    var port: Int {
        switch self {
        case .v4(let a): Int(UInt16(bigEndian: a.sin_port))
        case .v6(let a): Int(UInt16(bigEndian: a.sin6_port))
        }
    }

    /// The address family, `AF_INET` or `AF_INET6`.
    package var family: Int32 {
        switch self {
        case .v4: AF_INET
        case .v6: AF_INET6
        }
    }

    /// The numeric host, e.g. `127.0.0.1` or `::1`.
    var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch self {
        case .v4(var a):
            inet_ntop(AF_INET, &a.sin_addr, &buffer, socklen_t(buffer.count))
        case .v6(var a):
            inet_ntop(AF_INET6, &a.sin6_addr, &buffer, socklen_t(buffer.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `host:port`, with IPv6 hosts in brackets: `[::1]:8080`.
    package var description: String {
        switch self {
        case .v4: "\(host):\(port)"
        case .v6: "[\(host)]:\(port)"
        }
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    package func withSockAddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        switch self {
        case .v4(var a):
            withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .v6(var a):
            withUnsafePointer(to: &a) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }

    /// Reads an address from `sockaddr_storage`; `nil` for families other than IPv4/IPv6.
    init?(storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            self = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { .v4($0.pointee) }
            }
        case AF_INET6:
            self = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { .v6($0.pointee) }
            }
        default:
            return nil
        }
    }

    /// Resolves `host` (a numeric IPv4/IPv6 address, optionally in brackets, or a name such as
    /// `localhost`) and `port`: its first address. Returns `nil` if the host cannot be resolved.
    package static func resolve(host: String, port: Int) -> SocketAddress? {
        try? lookUp(host: host, port: port, limit: 1).get().first
    }

    /// Every IPv4 and IPv6 address of `host` (a name, or a numeric IPv4/IPv6 address, optionally in brackets) with
    /// `port`, in the system's order, at most `limit` of them; or why there are none, in words (`getaddrinfo: …`,
    /// or `no IPv4 or IPv6 address`). Blocks for a DNS lookup (not for a numeric address).
    package static func lookUp(host: String, port: Int, limit: Int) -> Result<[SocketAddress], AddressLookupError> {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard (0...65535).contains(port) else {
            return .failure(AddressLookupError(reason: "port \(port) out of range"))
        }
        guard !name.isEmpty else { return .failure(AddressLookupError(reason: "empty host name")) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(name, nil, &hints, &list)
        guard code == 0, let first = list else {
            return .failure(AddressLookupError(reason: "getaddrinfo: \(lookUpFailure(code))"))
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor, addresses.count < limit {
            if let raw = info.pointee.ai_addr {
                switch info.pointee.ai_family {
                case AF_INET:
                    var a = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
                    a.sin_port = UInt16(port).bigEndian
                    addresses.append(.v4(a))
                case AF_INET6:
                    var a = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
                    a.sin6_port = UInt16(port).bigEndian
                    addresses.append(.v6(a))
                default:
                    break
                }
            }
            cursor = info.pointee.ai_next
        }
        return addresses.isEmpty
            ? .failure(AddressLookupError(reason: "no IPv4 or IPv6 address")) : .success(addresses)
    }

    /// getaddrinfo's error code in words.
    private static func lookUpFailure(_ code: Int32) -> String {
        #if canImport(Glibc)
            String(cString: gai_strerror(code))
        #else
            "error \(code)"
        #endif
    }
}

/// Why ``SocketAddress/lookUp(host:port:limit:)`` found no address, in words.
package struct AddressLookupError: Error, Equatable {
    /// `getaddrinfo: Name or service not known`, `no IPv4 or IPv6 address`, …
    package let reason: String
}
