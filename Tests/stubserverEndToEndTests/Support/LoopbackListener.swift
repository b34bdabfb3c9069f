// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A loopback TCP socket of the test's own: listening (the kernel completes connections into its
    /// backlog, and nothing ever answers them: a silent upstream), or closed again to leave its port
    /// free for a server that must know its own port before it starts (`--proxy-all` at itself).
    final class LoopbackListener: @unchecked Sendable {
        let port: Int
        private let descriptor: Int32

        /// Binds 127.0.0.1 on a port the system picks, and listens unless `listen` is `false`.
        init(listen shouldListen: Bool = true) throws {
            #if canImport(Glibc)
                let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let descriptor = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Bool in
                    bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
                }
            }
            guard bound, !shouldListen || listen(descriptor, 64) == 0 else {
                close(descriptor)
                throw TestFailure("bind/listen on 127.0.0.1: errno \(errno)")
            }
            port = Int(UInt16(bigEndian: address.sin_port))
            if shouldListen {
                self.descriptor = descriptor
            } else {
                close(descriptor)
                self.descriptor = -1
            }
        }

        deinit { if descriptor >= 0 { close(descriptor) } }
    }
#endif
