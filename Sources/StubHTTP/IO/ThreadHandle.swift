#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A joinable POSIX thread (no Foundation in the engine).
struct ThreadHandle: @unchecked Sendable {
    private let thread: pthread_t

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts a thread running `body`.
    /// - Throws: ``SocketError`` with call `pthread_create` if the thread cannot be created.
    static func spawn(_ body: @escaping @Sendable () -> Void) throws(SocketError) -> ThreadHandle {
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw SocketError(errno: result, call: "pthread_create")
        }
        return ThreadHandle(thread: thread)
        #else
        var thread: pthread_t?
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
        guard result == 0, let thread else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw SocketError(errno: result, call: "pthread_create")
        }
        return ThreadHandle(thread: thread)
        #endif
    }

    /// Whether the calling thread is this thread.
    var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    /// Waits for the thread to end.
    func join() {
        _ = pthread_join(thread, nil)
    }
}

extension ThreadHandle {
    /// Lets the thread's resources go when it ends, without a join.
    func detach() { _ = pthread_detach(thread) }
}
