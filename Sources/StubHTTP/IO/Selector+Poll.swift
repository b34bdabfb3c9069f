#if canImport(Glibc)
    import Glibc
    import CStubSystem
#elseif canImport(Darwin)
    import Darwin
#endif

/// A portable poll(2) selector: the backend on Darwin, and unit-tested on Linux too.
///
/// Rebuilds nothing per wait except the `pollfd` array it keeps in step with registrations.
final class PollSelector: Selector {
    private var descriptors: [pollfd] = []
    private var tokens: [UInt64] = []
    /// The registered descriptors, in `descriptors` order (a `pollfd` entry may hold -1: see `emulatingDarwin`).
    private var registered: [Int32] = []
    private var indexByFD: [Int32: Int] = [:]
    /// Linux test runs only (``DarwinEmulation``): report the peer's FIN as a hang-up (POLLRDHUP) together with
    /// readability, poll nothing for a descriptor registered with no events, and drop POLLOUT with POLLHUP, as
    /// Darwin's poll does.
    private let emulatingDarwin: Bool

    init(emulatingDarwin: Bool = false) {
        self.emulatingDarwin = emulatingDarwin
    }

    /// POLLRDHUP: the peer shut its sending side (Linux; only asked for when emulating Darwin).
    #if os(Linux)
        private static let readHangup = cstub_POLLRDHUP
    #else
        private static let readHangup: Int16 = 0
    #endif

    private func entry(fd: Int32, interest: SelectorInterest) -> pollfd {
        var mask: Int16 = 0
        if interest.contains(.readable) { mask |= Int16(POLLIN) }
        if interest.contains(.writable) { mask |= Int16(POLLOUT) }
        guard emulatingDarwin else { return pollfd(fd: fd, events: mask, revents: 0) }
        if interest.contains(.readable) { mask |= Self.readHangup }
        // poll(2) skips negative descriptors: Darwin reports nothing at all for one with no events.
        return pollfd(fd: mask == 0 ? -1 : fd, events: mask, revents: 0)
    }

    func register(fd: Int32, interest: SelectorInterest, token: UInt64) throws(SocketError) {
        guard indexByFD[fd] == nil else { throw SocketError(errno: EEXIST, call: "poll register") }
        indexByFD[fd] = descriptors.count
        descriptors.append(entry(fd: fd, interest: interest))
        tokens.append(token)
        registered.append(fd)
    }

    func reregister(fd: Int32, interest: SelectorInterest, token: UInt64) throws(SocketError) {
        guard let index = indexByFD[fd] else { throw SocketError(errno: ENOENT, call: "poll reregister") }
        descriptors[index] = entry(fd: fd, interest: interest)
        tokens[index] = token
    }

    func deregister(fd: Int32) throws(SocketError) {
        guard let index = indexByFD.removeValue(forKey: fd) else {
            throw SocketError(errno: ENOENT, call: "poll deregister")
        }
        let last = descriptors.count - 1
        if index != last {
            descriptors[index] = descriptors[last]
            tokens[index] = tokens[last]
            registered[index] = registered[last]
            indexByFD[registered[index]] = index
        }
        descriptors.removeLast()
        tokens.removeLast()
        registered.removeLast()
    }

    func whenReady(timeoutMilliseconds: Int32, _ body: (SelectorEvent) -> Void) throws(SocketError) {
        let count = descriptors.withUnsafeMutableBufferPointer {
            poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
        }
        if count < 0 {
            if errno == EINTR { return }
            throw SocketError(errno: errno, call: "poll")
        }
        guard count > 0 else { return }
        // Collect first: `body` may register or deregister descriptors.
        var ready: [SelectorEvent] = []
        ready.reserveCapacity(Int(count))
        for index in descriptors.indices where descriptors[index].revents != 0 {
            ready.append(event(descriptors[index].revents, token: tokens[index]))
            descriptors[index].revents = 0
        }
        for event in ready { body(event) }
    }

    private func event(_ revents: Int16, token: UInt64) -> SelectorEvent {
        let failed = revents & Int16(POLLERR) != 0
        let hangup =
            revents & (Int16(POLLHUP) | Int16(POLLNVAL)) != 0
            || (emulatingDarwin && revents & Self.readHangup != 0)
        // Darwin's poll sets POLLOUT only without POLLHUP.
        let writable = revents & Int16(POLLOUT) != 0 && !(emulatingDarwin && hangup)
        return SelectorEvent(
            token: token,
            readable: failed || revents & Int16(POLLIN) != 0,
            writable: failed || writable,
            hangup: hangup
        )
    }

    func close() {
        descriptors.removeAll()
        tokens.removeAll()
        registered.removeAll()
        indexByFD.removeAll()
    }
}
