import StubHTTP

/// The streamed responses open now (``StubServer/streams(matching:)``): each with its request, so a test can
/// push to the ones a pattern matches. An entry goes when its stream ends (the engine's `onEnd`), so the
/// registry holds at most one entry per open connection, however long the server runs.
final class StreamRegistry: Sendable {
    /// One open stream.
    struct Entry: Sendable {
        let request: StubHTTPRequest
        let isEvents: Bool
        /// `nil` until the engine returned it (a stream that ended before that is never added).
        var stream: HTTPResponseStream?
    }

    private let state = LockedValue((next: UInt64(0), entries: [UInt64: Entry]()))

    /// Adds a stream about to start for `request`; returns its key.
    func reserve(_ request: StubHTTPRequest, isEvents: Bool) -> UInt64 {
        state.withLock { state in
            state.next &+= 1
            state.entries[state.next] = Entry(request: request, isEvents: isEvents)
            return state.next
        }
    }

    /// Gives the entry `key` its stream, unless the stream already ended.
    func attach(_ stream: HTTPResponseStream, to key: UInt64) {
        state.withLock { state in state.entries[key]?.stream = stream }
    }

    /// The stream `key` ended.
    func remove(_ key: UInt64) {
        _ = state.withLock { state in state.entries.removeValue(forKey: key) }
    }

    /// The open streams whose request `pattern` matches, oldest first.
    func streams(matching pattern: CompiledRequestPattern) -> [Entry] {
        let entries = state.withLock { state in state.entries.sorted { $0.key < $1.key }.map(\.value) }
        return entries.filter { $0.stream != nil && pattern.matches($0.request) }
    }
}
