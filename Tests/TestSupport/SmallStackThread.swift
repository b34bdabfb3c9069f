#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs code on a thread with a chosen stack size, as Darwin gives secondary threads (and Swift Testing's
/// and XCTest's worker threads) 512 KiB while Linux gives 8 MiB. A stack overflow crashes the test process,
/// so a test that passes here shows the code fits.
public enum SmallStackThread {
    /// Darwin's default stack size for threads other than the main thread.
    public static let darwinDefaultStackSize = 512 * 1024

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread whose stack is `stackSize` bytes, waits for it, and returns its result.
    public static func run<T>(stackSize: Int = darwinDefaultStackSize, _ body: @escaping () -> T) -> T {
        var result: T?
        withoutActuallyEscaping(body) { body in
            let box = Box { result = body() }
            var attributes = pthread_attr_t()
            precondition(pthread_attr_init(&attributes) == 0, "pthread_attr_init failed")
            defer { pthread_attr_destroy(&attributes) }
            precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0, "pthread_attr_setstacksize failed")
            #if canImport(Glibc)
                var thread = pthread_t()
            #else
                var thread: pthread_t?
            #endif
            let context = Unmanaged.passRetained(box).toOpaque()
            let created = pthread_create(
                &thread, &attributes,
                { raw in
                    guard let raw else { return nil }
                    Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                    return nil
                }, context)
            precondition(created == 0, "pthread_create failed: \(created)")
            #if canImport(Glibc)
                _ = pthread_join(thread, nil)
            #else
                if let thread { _ = pthread_join(thread, nil) }
            #endif
        }
        guard let result else { preconditionFailure("the thread did not run") }
        return result
    }
}
