import StubHTTP

/// What a server needs to forward requests: the client, the workers that start exchanges off the
/// event loops, and the settings.
package struct ProxyForwarding: Sendable {
    package let client: any ProxyTransport
    /// Starts exchanges (building the upstream request copies the body), so event loops never do.
    package let workers: WorkerPool
    /// Marks forwarded requests with this server's `Via` entry and answers 508 to those that come back.
    package let loopGuard = ProxyLoopGuard()

    package var settings: ProxySettings { client.settings }

    package init(settings: ProxySettings) {
        #if Slim
            client = UnavailableProxyTransport(settings: settings)
        #else
            client = ProxyClient(settings: settings)
        #endif
        workers = WorkerPool(name: "proxy", threadLimit: 2, queueLimit: 1024)
    }

    /// Cancels exchanges in flight and stops the workers.
    package func shutdown() {
        workers.shutdown()
        client.shutdown()
    }
}
