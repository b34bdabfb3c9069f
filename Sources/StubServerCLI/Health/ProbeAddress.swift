#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A resolved socket address for the health probe (IPv4 or IPv6), as `getaddrinfo(3)` returns it.
struct ProbeAddress: Sendable {
    let family: Int32
    let bytes: [UInt8]

    #if canImport(Glibc)
        static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
        static let streamType = SOCK_STREAM
    #endif

    /// Every TCP address of `host`:`port`, numeric addresses without a lookup.
    static func resolve(host: String, port: Int) -> Result<[ProbeAddress], ProbeFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            return .failure(ProbeFailure("cannot resolve '\(host)': \(resolverError(status))"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [ProbeAddress] = []
        var next = list
        while let info = next {
            if let address = info.pointee.ai_addr,
                info.pointee.ai_family == AF_INET || info.pointee.ai_family == AF_INET6
            {
                let raw = UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen))
                addresses.append(ProbeAddress(family: info.pointee.ai_family, bytes: Array(raw)))
            }
            next = info.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(ProbeFailure("no IPv4 or IPv6 address for '\(host)'")) : .success(addresses)
    }
}

/// getaddrinfo's reason for `status`.
private func resolverError(_ status: Int32) -> String {
    #if canImport(Glibc)
        String(cString: gai_strerror(status))
    #else
        // gai_strerror exists on Darwin, but the Darwin check's stand-in SDK lacks it: the code is enough.
        "getaddrinfo error \(status)"
    #endif
}
