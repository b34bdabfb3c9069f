import Dispatch
import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the admin API keeps besides stubs and journal: how to shut the server down.
final class AdminState: Sendable {
    private let shutdownHandler = LockedValue<(@Sendable () -> Void)?>(nil)

    /// Sets what `POST /__admin/shutdown` runs (off the event loop).
    func onShutdown(_ handler: @escaping @Sendable () -> Void) {
        shutdownHandler.withLock { $0 = handler }
    }

    /// Runs the shutdown handler on another thread, so the admin call's answer is written first and
    /// no event-loop thread waits for the server to stop.
    func requestShutdown() {
        guard let handler = shutdownHandler.withLock({ $0 }) else { return }
        DispatchQueue.global().async { handler() }
    }
}
