#if canImport(Glibc)
    import Glibc
    import CStubSystem
#elseif canImport(Darwin)
    import Darwin
#endif

/// A joinable POSIX thread (no Foundation in the engine).
package struct ThreadHandle: @unchecked Sendable {
    private let thread: pthread_t

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts a thread running `body`.
    ///
    /// - Parameter stackSize: the thread's stack size in bytes (a multiple of the page size), or nil for the
    ///   platform's default (8 MiB on Linux, 512 KiB for secondary threads on Darwin).
    /// - Throws: ``SocketError`` with call `pthread_attr_setstacksize` or `pthread_create` if the thread cannot
    ///   be created.
    package static func spawn(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) throws(SocketError)
        -> ThreadHandle
    {
        var attributes = pthread_attr_t()
        let initialized = pthread_attr_init(&attributes)
        guard initialized == 0 else { throw SocketError(errno: initialized, call: "pthread_attr_init") }
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize {
            let set = pthread_attr_setstacksize(&attributes, stackSize)
            guard set == 0 else { throw SocketError(errno: set, call: "pthread_attr_setstacksize") }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        // glibc's pthread_t is an integer, Darwin's a non-null pointer that pthread_create fills in.
        #if canImport(Glibc)
            var created = pthread_t()
        #else
            var created: pthread_t?
        #endif
        // The start routine's argument is `UnsafeMutableRawPointer?` on Darwin and on recent glibc overlays.
        let result = pthread_create(
            &created, &attributes,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw SocketError(errno: result, call: "pthread_create")
        }
        #if canImport(Glibc)
            return ThreadHandle(thread: created)
        #else
            guard let created else { throw SocketError(errno: EAGAIN, call: "pthread_create") }
            return ThreadHandle(thread: created)
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
    package func detach() { _ = pthread_detach(thread) }

    /// Names the calling thread for debuggers and `top -H` (Linux keeps the first 15 bytes); elsewhere a no-op.
    package static func nameCurrent(_ name: String) {
        #if os(Linux)
            _ = cstub_set_current_thread_name(String(decoding: name.utf8.prefix(15), as: UTF8.self))
        #endif
    }

    /// Lowers the calling thread's scheduling priority (Linux: nice +10 on this thread alone), for work
    /// that must yield the CPU to the event loops, such as serializing a 10,000-entry journal listing on a
    /// busy two-core CI runner. Elsewhere a no-op for now.
    package static func lowerCurrentPriority() {
        #if os(Linux)
            _ = cstub_lower_current_thread_priority(10)
        #endif
    }

    /// The calling thread's stack size in bytes, where the platform tells (Linux); for tests.
    static var currentStackSize: Int? {
        #if os(Linux)
            let size = cstub_current_thread_stack_size()
            return size > 0 ? Int(size) : nil
        #else
            return nil
        #endif
    }
}
