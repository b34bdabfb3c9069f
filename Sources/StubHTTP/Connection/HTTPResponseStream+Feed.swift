/// Writing a feed: a stream that skips what a slow reader cannot take, rather than buffering it or being cut
/// (``HTTPServerConfiguration/maxStreamBacklog``), and batches its writes on the connection's event loop.
extension HTTPResponseStream {
    /// Sends `bytes` as the next part of the body unless more than `backlog` bytes of it still wait for the
    /// client; then calls `completion` on the event loop with whether they were sent (`false` also when the
    /// stream ended). Writes are taken in the order they were made.
    ///
    /// ```swift
    /// stream.write(batch, unlessBacklogExceeds: 64 * 1024) { written in
    ///     if !written { feed.countDropped(batchCount) }
    /// }
    /// ```
    public func write(
        _ bytes: [UInt8], unlessBacklogExceeds backlog: Int, completion: @escaping @Sendable (_ written: Bool) -> Void
    ) {
        onLoop { connection, generation in
            completion(connection.streamWrite(bytes, unlessBacklogExceeds: backlog, generation: generation))
        }
    }

    /// Caps the kernel's send buffer of this connection at about `bytes` (`SO_SNDBUF`, which Linux doubles
    /// and no longer grows), so that a client that stops reading holds that much in the kernel, not the
    /// several MiB the buffer grows to by itself, and ``write(_:unlessBacklogExceeds:completion:)`` sees
    /// it fall behind soon. For slow, long-lived streams only: it caps the throughput over a long path.
    public func limitSendBuffer(to bytes: Int) {
        onLoop { connection, generation in connection.streamLimitSendBuffer(to: bytes, generation: generation) }
    }

    /// Runs `body` on the connection's event loop once `delay` has passed, counted from this call, if the
    /// stream is still open then; never, if it ends first. `body` must not block.
    public func schedule(after delay: Duration, _ body: @escaping @Sendable () -> Void) {
        onLoop { connection, generation in connection.streamSchedule(after: delay, generation: generation, body) }
    }
}
