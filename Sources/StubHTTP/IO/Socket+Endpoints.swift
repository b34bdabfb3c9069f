#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Socket {
    /// Both ends of an accepted connection, or `nil` when either address cannot be read (the peer already
    /// went away, or an address family other than IPv4/IPv6). `listenerLabel`: the accepting listener's label.
    func endpoints(listenerLabel: String? = nil) -> HTTPEndpoints? {
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
            listenerLabel: listenerLabel)
    }
}
