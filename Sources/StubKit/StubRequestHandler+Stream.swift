import StubHTTP

/// Sending a streamed response (``ResponseStream``): the head after the stub's delay, then each event or
/// line after its own, from timers on the event loop (an open stream holds no thread), registered with
/// ``StubRequestHandler/streams`` while open so a test can push more.
extension StubRequestHandler {
    /// The stream of a closure stub's events (``StubClosure/events(head:produce:)``): none to begin with, open
    /// until its producer returns.
    static let producedEvents = PreparedStream(ResponseStream(.events([]), end: .open))

    /// Sends `head` after `delay`, then `stream`'s events or lines; `producing` (a closure stub's producer) runs
    /// once the stream is open and is cancelled when it ends.
    func send(
        _ stream: PreparedStream, head: HTTPResponse,
        producing produce: (@Sendable (EventSink) async throws -> Void)?, for request: StubHTTPRequest,
        via responder: HTTPResponder, after delay: Duration?
    ) {
        let steps =
            stream.isEvents
            ? stream.steps(resumingAfter: request.headers.first(name: "Last-Event-ID")) : stream.steps[...]
        let registry = streams
        let producing = produce.map(ProducingTask.init)
        let key = registry.reserve(request, isEvents: stream.isEvents)
        let handle = responder.startStreaming(
            head, after: delay ?? .zero, playing: Array(steps), then: stream.end,
            probe: stream.isEvents ? PreparedStream.eventProbe : nil
        ) { _ in
            registry.remove(key)
            producing?.end()
        }
        registry.attach(handle, to: key)
        producing?.start(handle)
    }
}

/// The task running a closure stub's event producer for one open stream: started once the stream is, cancelled
/// when the stream ends (the client left, the server stopped), whichever comes first.
final class ProducingTask: Sendable {
    private let produce: @Sendable (EventSink) async throws -> Void
    private let state = LockedValue((task: Task<Void, Never>?.none, ended: false))

    init(_ produce: @escaping @Sendable (EventSink) async throws -> Void) {
        self.produce = produce
    }

    /// Runs the producer into `stream`: its return finishes the stream, its error cuts it.
    func start(_ stream: HTTPResponseStream) {
        let produce = produce
        let task = Task {
            do {
                try await produce(EventSink { stream.write($0) })
                stream.finish()
            } catch {
                stream.abort()
            }
        }
        let ended = state.withLock { state in
            state.task = task
            return state.ended
        }
        if ended { task.cancel() }
    }

    /// The stream ended: the producer is cancelled.
    func end() {
        let task = state.withLock { state in
            state.ended = true
            return state.task
        }
        task?.cancel()
    }
}
