/// What streamed bodies (``HTTPBodySource``) of one server have queued: the evidence that a client who
/// stops reading costs a bounded number of bytes. Updated on the loop threads, read from anywhere.
final class StreamedBodyGauge: Sendable {
    struct Reading: Sendable, Hashable {
        /// The most bytes one streamed response ever had waiting in its connection.
        var peakQueuedBytes = 0
        /// Pieces asked of sources so far.
        var pulls = 0
        /// Sources told to stop before their end.
        var cancellations = 0
    }

    private let state = LockedValue(Reading())

    /// The current figures.
    var reading: Reading { state.withLock { $0 } }

    func pulled() { state.withLock { $0.pulls += 1 } }

    func queued(_ bytes: Int) { state.withLock { $0.peakQueuedBytes = max($0.peakQueuedBytes, bytes) } }

    func cancelled() { state.withLock { $0.cancellations += 1 } }
}
