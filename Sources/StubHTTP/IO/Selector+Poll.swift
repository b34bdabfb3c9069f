#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A portable poll(2) selector: the backend on Darwin, and unit-tested on Linux too.
///
/// Rebuilds nothing per wait except the `pollfd` array it keeps in step with registrations.
final class PollSelector: Selector {
    private var descriptors: [pollfd] = []
    private var tokens: [UInt64] = []
    private var indexByFD: [Int32: Int] = [:]

    init() {}

    private static func mask(_ interest: SelectorInterest) -> Int16 {
        var mask: Int16 = 0
        if interest.contains(.readable) { mask |= Int16(POLLIN) }
        if interest.contains(.writable) { mask |= Int16(POLLOUT) }
        return mask
    }

    func register(fd: Int32, interest: SelectorInterest, token: UInt64) throws(SocketError) {
        guard indexByFD[fd] == nil else { throw SocketError(errno: EEXIST, call: "poll register") }
        indexByFD[fd] = descriptors.count
        descriptors.append(pollfd(fd: fd, events: Self.mask(interest), revents: 0))
        tokens.append(token)
    }

    func reregister(fd: Int32, interest: SelectorInterest, token: UInt64) throws(SocketError) {
        guard let index = indexByFD[fd] else { throw SocketError(errno: ENOENT, call: "poll reregister") }
        descriptors[index].events = Self.mask(interest)
        tokens[index] = token
    }

    func deregister(fd: Int32) throws(SocketError) {
        guard let index = indexByFD.removeValue(forKey: fd) else { throw SocketError(errno: ENOENT, call: "poll deregister") }
        let last = descriptors.count - 1
        if index != last {
            descriptors[index] = descriptors[last]
            tokens[index] = tokens[last]
            indexByFD[descriptors[index].fd] = index
        }
        descriptors.removeLast()
        tokens.removeLast()
    }

    func whenReady(timeoutMilliseconds: Int32, _ body: (SelectorEvent) -> Void) throws(SocketError) {
        let count = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        if count < 0 {
            if errno == EINTR { return }
            throw SocketError(errno: errno, call: "poll")
        }
        guard count > 0 else { return }
        // Collect first: `body` may register or deregister descriptors.
        var ready: [SelectorEvent] = []
        ready.reserveCapacity(Int(count))
        for index in descriptors.indices where descriptors[index].revents != 0 {
            let revents = descriptors[index].revents
            let failed = revents & Int16(POLLERR) != 0
            ready.append(SelectorEvent(
                token: tokens[index],
                readable: failed || revents & Int16(POLLIN) != 0,
                writable: failed || revents & Int16(POLLOUT) != 0,
                hangup: revents & (Int16(POLLHUP) | Int16(POLLNVAL)) != 0
            ))
            descriptors[index].revents = 0
        }
        for event in ready { body(event) }
    }

    func close() {
        descriptors.removeAll()
        tokens.removeAll()
        indexByFD.removeAll()
    }
}
