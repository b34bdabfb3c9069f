/// Streamed responses open on a ``StubServer`` (``StubServer/streams(matching:)``). Writes go out at once,
/// between the steps of each stream's script; a client that reads too slowly is cut at
/// `HTTPServerConfiguration.maxStreamBacklog` bytes. Safe from any thread.
public struct OpenStreams: Sendable {
    private let entries: [StreamRegistry.Entry]

    init(_ entries: [StreamRegistry.Entry]) {
        self.entries = entries
    }

    /// How many streams these are.
    public var count: Int { entries.count }
    /// How many of these stream server-sent events (the others stream lines).
    public var eventStreamCount: Int { entries.reduce(0) { $0 + ($1.isEvents ? 1 : 0) } }
    /// Whether there are none.
    public var isEmpty: Bool { entries.isEmpty }

    /// Sends `event` (its delay ignored) to each of these that streams server-sent events.
    public func send(_ event: ServerSentEvent) {
        let bytes = event.wireBytes
        for entry in entries where entry.isEvents { entry.stream?.write(bytes) }
    }

    /// Sends `line` and `\n` (its delay ignored) to each of these that streams lines.
    public func send(_ line: StreamedLine) {
        let bytes = line.wireBytes
        for entry in entries where !entry.isEvents { entry.stream?.write(bytes) }
    }

    /// Ends each properly: an event stream's client sees it close (and reconnects, as browsers do).
    public func finish() {
        for entry in entries { entry.stream?.finish() }
    }

    /// Closes each connection mid-response: the client sees a failed stream.
    public func abort() {
        for entry in entries { entry.stream?.abort() }
    }
}
