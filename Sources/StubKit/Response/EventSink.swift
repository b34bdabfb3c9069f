/// Where a closure's events go: the open stream of one request. Safe from any thread.
struct EventSink: Sendable {
    let write: @Sendable ([UInt8]) -> Void

    /// Sends `event` now (its delay is the producer's business).
    func send(_ event: ServerSentEvent) { write(event.wireBytes) }
}
