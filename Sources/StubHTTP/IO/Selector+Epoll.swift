#if os(Linux)
    import Glibc
    import CStubSystem

    /// A level-triggered epoll(7) selector.
    final class EpollSelector: Selector {
        private let epollFD: Int32
        private let events: UnsafeMutableRawPointer
        private let eventStride: Int
        private let capacity = 256

        init() throws(SocketError) {
            epollFD = try blockingSyscall(where: "epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
            eventStride = Int(cstub_epoll_event_size())
            events = .allocate(byteCount: eventStride * capacity, alignment: 8)
        }

        deinit { events.deallocate() }

        private static func mask(_ interest: SelectorInterest) -> UInt32 {
            var mask: UInt32 = 0
            if interest.contains(.readable) { mask |= cstub_EPOLLIN }
            if interest.contains(.writable) { mask |= cstub_EPOLLOUT }
            return mask
        }

        func register(fd: Int32, interest: SelectorInterest, token: UInt64) throws(SocketError) {
            try blockingSyscall(where: "epoll_ctl") {
                cstub_epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, Self.mask(interest), token)
            }
        }

        func reregister(fd: Int32, interest: SelectorInterest, token: UInt64) throws(SocketError) {
            try blockingSyscall(where: "epoll_ctl") {
                cstub_epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, Self.mask(interest), token)
            }
        }

        func deregister(fd: Int32) throws(SocketError) {
            try blockingSyscall(where: "epoll_ctl") { cstub_epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, 0, 0) }
        }

        func deregister(fd: Int32, closing: Bool) {
            // close(2) removes the descriptor from the interest list once its last reference is gone: accepted
            // sockets are close-on-exec and never duplicated, so the EPOLL_CTL_DEL would be a wasted syscall.
            if closing { return }
            try? deregister(fd: fd)
        }

        func whenReady(timeoutMilliseconds: Int32, _ body: (SelectorEvent) -> Void) throws(SocketError) {
            let typed = events.assumingMemoryBound(to: epoll_event.self)
            let count = epoll_wait(epollFD, typed, Int32(capacity), timeoutMilliseconds)
            if count < 0 {
                if errno == EINTR { return }
                throw SocketError(errno: errno, call: "epoll_wait")
            }
            for index in 0..<Int(count) {
                let event = UnsafeRawPointer(events + index * eventStride).assumingMemoryBound(to: epoll_event.self)
                let flags = cstub_epoll_event_events(event)
                let failed = flags & cstub_EPOLLERR != 0
                body(
                    SelectorEvent(
                        token: cstub_epoll_event_u64(event),
                        readable: failed || flags & cstub_EPOLLIN != 0,
                        writable: failed || flags & cstub_EPOLLOUT != 0,
                        hangup: flags & cstub_EPOLLHUP != 0
                    ))
            }
        }

        func close() {
            _ = sysClose(epollFD)
        }
    }
#endif
