#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: the call's name and the `errno` it left.
///
/// ```swift
/// catch let error as SocketError { print(error) } // "bind failed: Address already in use (errno 98)"
/// ```
public struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` value.
    public let errno: Int32
    /// The system call that failed, e.g. `"bind"`.
    public let call: String

    public init(errno: Int32, call: String) {
        self.errno = errno
        self.call = call
    }

    public var description: String { "\(call) failed: \(SocketError.message(for: errno)) (errno \(errno))" }

    /// The C library's message for an `errno` value.
    static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// The outcome of a non-blocking call: done, or it would have blocked (`EAGAIN`).
package enum IOResult<Value> {
    case processed(Value)
    case wouldBlock
}

extension IOResult: Sendable where Value: Sendable {}

/// The one place system calls go through: retries `EINTR`, maps `EAGAIN`/`EWOULDBLOCK` to
/// ``IOResult/wouldBlock`` and throws every other failure as a ``SocketError`` naming `call`.
///
/// - Parameters:
///   - call: The system call's name, for the error message.
///   - body: Makes the call; a negative result means failure with `errno` set.
@inline(__always)
func syscall<T: FixedWidthInteger>(where call: StaticString, _ body: () -> T) throws(SocketError) -> IOResult<T> {
    while true {
        let result = body()
        if result >= 0 { return .processed(result) }
        let code = errno
        switch code {
        case EINTR: continue
        case EAGAIN, EWOULDBLOCK: return .wouldBlock
        default: throw SocketError(errno: code, call: call.description)
        }
    }
}

/// Like ``syscall(where:_:)`` for calls that never return `EAGAIN` (socket, bind, close...).
@inline(__always)
@discardableResult
func blockingSyscall<T: FixedWidthInteger>(where call: StaticString, _ body: () -> T) throws(SocketError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SocketError(errno: code, call: call.description)
    }
}

/// Writes all of `bytes` to `descriptor` (a log file, stdout, stderr), retrying after `EINTR` and waiting, 100 ms at
/// a time, while a non-blocking descriptor is full. Blocks: call it off the event loops.
/// - Returns: how many bytes were written; fewer than all when the descriptor closed or failed for good.
package func writeFully(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var offset = 0
    while offset < bytes.count {
        #if canImport(Glibc)
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        #else
            let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
        #endif
        if written > 0 {
            offset += written
        } else if written < 0, errno == EINTR {
            continue
        } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, 100)
        } else {
            return offset
        }
    }
    return offset
}
