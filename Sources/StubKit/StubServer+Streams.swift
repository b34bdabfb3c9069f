import StubHTTP

extension StubServer {
    /// The streamed responses open now (``ResponseDefinition/events(_:end:)``, ``ResponseDefinition/lines(_:end:)``)
    /// whose request matches `pattern`, oldest first: push events or lines into them, finish or cut them.
    ///
    /// ```swift
    /// server.stub(.get("/scores"), .events([ServerSentEvent(data: "0-0", id: "0")], end: .open))
    /// app.buttons["Live"].tap()
    /// let scores = try await server.waitForStreams(matching: .get("/scores"))
    /// scores.send(ServerSentEvent(data: "1-0", event: "goal", id: "1"))
    /// scores.finish()
    /// ```
    ///
    /// A stream leaves the list when it ends (finished, cut, or its client left), so the list never grows
    /// with traffic. A stream whose stub has a delay is listed from the request on; what is sent to it
    /// before its head goes out is dropped.
    public func streams(matching pattern: RequestPattern) -> OpenStreams {
        OpenStreams(streams.streams(matching: CompiledRequestPattern(pattern)))
    }

    /// Suspends until at least `count` open streams match `pattern` (the app connected), or `timeout` passes;
    /// returns those open then (fewer than `count` on timeout). Checks every 5 milliseconds.
    public func waitForStreams(
        matching pattern: RequestPattern, count: Int = 1, timeout: Duration = .seconds(5)
    ) async throws -> OpenStreams {
        let compiled = CompiledRequestPattern(pattern)
        return try await Self.polling(timeout: timeout) {
            let open = streams.streams(matching: compiled)
            return (OpenStreams(open), open.count >= count)
        }
    }
}

extension StubServer {
    /// Adds a stub answered by an open event stream whose events `produce` makes for each request: an
    /// `AsyncSequence` iterated as a task (never on an event loop). Its end finishes the stream, an error cuts
    /// it, and the client leaving cancels the task. A producer faster than the client reads is cut at 1 MiB
    /// waiting (`HTTPServerConfiguration.maxStreamBacklog`).
    ///
    /// ```swift
    /// server.stub(.get(pathTemplate: "/matches/{id}/score")) { request in
    ///     AsyncStream { continuation in
    ///         continuation.yield(ServerSentEvent(data: "0-0", id: "0"))
    ///         continuation.yield(ServerSentEvent(data: "1-0", event: "goal", id: "1"))
    ///         continuation.finish()
    ///     }
    /// }
    /// ```
    @discardableResult
    public func stub<Events: AsyncSequence & Sendable>(
        _ request: RequestPattern, head: ResponseDefinition = ResponseDefinition(),
        priority: Int = StubMapping.defaultPriority, name: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        events produce: @escaping @Sendable (StubRequest) -> Events
    ) -> StubHandle where Events.Element == ServerSentEvent {
        add(
            StubMapping(
                request, head.streaming(ResponseStream(.events([]), end: .open)), priority: priority, name: name),
            closure: .events(head: head) { stubRequest, sink in
                for try await event in produce(stubRequest) {
                    try Task.checkCancellation()
                    sink.send(event)
                }
            },
            at: StubCallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}
