import StubHTTP

/// Sending a streamed response (``ResponseStream``): the head after the stub's delay, then each event or
/// line after its own, from timers on the event loop (an open stream holds no thread), registered with
/// ``StubRequestHandler/streams`` while open so a test can push more.
extension StubRequestHandler {
    func send(
        _ stream: PreparedStream, head: HTTPResponse, for request: StubHTTPRequest, via responder: HTTPResponder,
        after delay: Duration?
    ) {
        let steps =
            stream.isEvents
            ? stream.steps(resumingAfter: request.headers.first(name: "Last-Event-ID")) : stream.steps[...]
        let registry = streams
        let key = registry.reserve(request, isEvents: stream.isEvents)
        let handle = responder.startStreaming(
            head, after: delay ?? .zero, playing: Array(steps), then: stream.end,
            probe: stream.isEvents ? PreparedStream.eventProbe : nil
        ) { _ in registry.remove(key) }
        registry.attach(handle, to: key)
    }
}
