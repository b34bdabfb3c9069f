/// What a registered descriptor is watched for.
struct SelectorInterest: OptionSet, Sendable {
    let rawValue: UInt8
    static let readable = SelectorInterest(rawValue: 1)
    static let writable = SelectorInterest(rawValue: 2)
}

/// One readiness notification: the token given at registration and what is ready.
/// Errors are reported as readable and writable, so the next read or write sees them.
struct SelectorEvent: Sendable {
    var token: UInt64
    var readable: Bool
    var writable: Bool
    /// The connection is shut in both directions or was reset (EPOLLHUP/POLLHUP).
    var hangup: Bool = false
}

/// A readiness selector (level-triggered): epoll on Linux, poll(2) elsewhere.
///
/// Used from its event loop's thread only.
protocol Selector: AnyObject {
    /// Starts watching `fd`; events carry `token`.
    func register(fd: Int32, interest: SelectorInterest, token: UInt64) throws(SocketError)
    /// Changes what `fd` is watched for.
    func reregister(fd: Int32, interest: SelectorInterest, token: UInt64) throws(SocketError)
    /// Stops watching `fd`. Must be called before closing it.
    func deregister(fd: Int32) throws(SocketError)
    /// Stops watching `fd`, ignoring errors. With `closing`, the caller closes `fd` next and holds no
    /// duplicate of it, so a backend whose kernel forgets closed descriptors (epoll) may skip the call.
    func deregister(fd: Int32, closing: Bool)
    /// Waits up to `timeoutMilliseconds` (-1: forever) and calls `body` for each ready descriptor.
    func whenReady(timeoutMilliseconds: Int32, _ body: (SelectorEvent) -> Void) throws(SocketError)
    /// Releases the selector's own descriptors.
    func close()
}

extension Selector {
    func deregister(fd: Int32, closing: Bool) {
        try? deregister(fd: fd)
    }
}

/// The selector backends available on this platform.
enum SelectorBackend: Sendable, Hashable {
    /// epoll(7): Linux only.
    case epoll
    /// poll(2): everywhere.
    case poll
    /// poll(2) as Darwin's behaves, for Linux test runs (see ``DarwinEmulation``); on Darwin, plain ``poll``.
    /// Its loops also use Darwin's pipe waker and 512 KiB thread stacks.
    case darwinEmulation

    /// The platform's best backend; on Linux with ``DarwinEmulation`` requested, ``darwinEmulation``.
    static var platformDefault: SelectorBackend {
        #if os(Linux)
            DarwinEmulation.isRequested ? .darwinEmulation : .epoll
        #else
            .poll
        #endif
    }

    /// Creates a selector of this kind.
    func makeSelector() throws(SocketError) -> any Selector {
        switch self {
        case .epoll:
            #if os(Linux)
                return try EpollSelector()
            #else
                return PollSelector()
            #endif
        case .poll:
            return PollSelector()
        case .darwinEmulation:
            #if os(Linux)
                return PollSelector(emulatingDarwin: true)
            #else
                return PollSelector()
            #endif
        }
    }

    /// Whether loops wake with a pipe (as on Darwin) rather than an eventfd (Linux).
    var usesPipeWaker: Bool {
        #if os(Linux)
            self == .darwinEmulation
        #else
            true
        #endif
    }

    /// The stack size of this backend's loop threads: explicit, so it is the same on every platform (the
    /// defaults are 8 MiB on Linux and 512 KiB on Darwin). Darwin emulation uses Darwin's 512 KiB, to show
    /// that what runs on a loop thread (request matching, JSON bodies) fits in half the real size.
    var loopThreadStackSize: Int {
        self == .darwinEmulation ? 512 * 1024 : 1024 * 1024
    }
}
