/// Swift code answering in place of a stub's fixed response (in-process stubs only).
enum StubClosure: Sendable {
    /// Runs on a worker thread (never an event loop), so it may block.
    case sync(@Sendable (StubRequest) throws -> ResponseDefinition)
    /// Runs as a task on Swift's global executor (never an event loop); should not block.
    case async(@Sendable (StubRequest) async throws -> ResponseDefinition)
    /// Answers `head` as an open event stream, into which `produce` (run as a task) sends events until it
    /// returns (the stream finishes) or throws (the stream is cut); the client leaving cancels it.
    case events(head: ResponseDefinition, produce: @Sendable (StubRequest, EventSink) async throws -> Void)
    /// Accepts the WebSocket upgrade and runs `handler` (as a task) for the connection.
    case webSocket(@Sendable (StubWebSocket) async -> Void)
}

/// The error a closure stub threw, as the 500 response and the journal show it.
struct StubClosureFailure: Sendable, CustomStringConvertible {
    let stubName: String
    let error: any Error

    var description: String { "stubserver: the closure of stub \(stubName) threw: \(error)\n" }

    var response: ResponseDefinition {
        ResponseDefinition(
            status: 500, headers: ["Content-Type": ResponseDefinition.textContentType], body: .text(description))
    }
}
