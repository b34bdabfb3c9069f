import Dispatch
import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the admin API keeps besides stubs and journal: how to shut the server down and change its
/// availability.
final class AdminState: Sendable {
    private let shutdownHandler = LockedValue<(@Sendable () -> Void)?>(nil)
    /// The server whose availability `/__admin/stubserver/availability` reads and sets.
    private let server = LockedValue<WeakServer>(WeakServer())

    private struct WeakServer {
        weak var http: HTTPServer?
    }

    /// Sets the server `/__admin/stubserver/availability` acts on.
    func onAvailability(of http: HTTPServer) {
        server.withLock { $0.http = http }
    }

    /// The server `/__admin/stubserver/availability` acts on; nil once released.
    var httpServer: HTTPServer? {
        server.withLock { $0.http }
    }

    /// Sets what `POST /__admin/shutdown` runs (off the event loop).
    func onShutdown(_ handler: @escaping @Sendable () -> Void) {
        shutdownHandler.withLock { $0 = handler }
    }

    /// Runs the shutdown handler on a thread of its own, so the admin call's answer is written first and
    /// no event-loop thread waits for the server to stop. Not on Dispatch's global queue: its few threads
    /// may all be busy with someone else's blocking work, and the stop would wait for them. (Dispatch only
    /// if no thread can be created.)
    func requestShutdown() {
        guard let handler = shutdownHandler.withLock({ $0 }) else { return }
        if let thread = try? ThreadHandle.spawn(handler) {
            thread.detach()
        } else {
            DispatchQueue.global().async(execute: handler)
        }
    }
}
