/// Paced responses and deliberate failures.
extension HTTPResponder {
    /// Sends `prepared` after `delay`, its bytes spread out as `pacing` says (timers on the event loop;
    /// no thread waits). The response keeps its `Content-Length`, so a client can show progress.
    ///
    /// ```swift
    /// responder.respond(PreparedResponse(.text(big)), pacing: .bytesPerSecond(30_000), after: .milliseconds(400))
    /// ```
    public func respond(_ prepared: PreparedResponse, pacing: WritePacing, after delay: Duration = .zero) {
        let generation = generation
        if delay > .zero {
            deliver(after: delay) { $0.completePaced(prepared, pacing: pacing, generation: generation) }
        } else {
            deliver { $0.completePaced(prepared, pacing: pacing, generation: generation) }
        }
    }

    /// Ends the connection as `failure` says, after `delay`, instead of answering.
    public func fail(_ failure: ConnectionFailure, after delay: Duration = .zero) {
        let generation = generation
        if delay > .zero {
            deliver(after: delay) { $0.fail(failure, generation: generation) }
        } else {
            deliver { $0.fail(failure, generation: generation) }
        }
    }
}
