import StubHTTP
import StubModel

/// A stub's streamed response (``ResponseStream``), its writes made once when the route table is built.
package struct PreparedStream: Sendable {
    /// One write per event or line.
    package let steps: [HTTPStreamStep]
    /// The `id` of each step's event (for `Last-Event-ID`); empty for lines.
    let ids: [String?]
    package let end: HTTPStreamEnd
    /// Server-sent events (a comment probes a client that left); otherwise lines (no probe: any byte
    /// would be data).
    package let isEvents: Bool

    /// The comment line written to learn whether a client that sent its EOF is still there.
    package static let eventProbe = Array(":\n\n".utf8)

    package init(_ stream: ResponseStream) {
        switch stream.content {
        case .events(let events):
            steps = events.map { HTTPStreamStep(after: $0.delay, $0.wireBytes) }
            ids = events.map(\.id)
            isEvents = true
        case .lines(let lines):
            steps = lines.map { HTTPStreamStep(after: $0.delay, $0.wireBytes) }
            ids = []
            isEvents = false
        }
        end = Self.end(of: stream)
    }

    init(steps: [HTTPStreamStep], ids: [String?], end: HTTPStreamEnd, isEvents: Bool) {
        self.steps = steps
        self.ids = ids
        self.end = end
        self.isEvents = isEvents
    }

    /// The engine's end for `stream`'s.
    static func end(of stream: ResponseStream) -> HTTPStreamEnd {
        switch stream.end {
        case .finish: .finish
        case .open: .stayOpen
        case .fault: .abort
        }
    }

    /// The steps for a client that reconnected with `Last-Event-ID: lastEventID`: those after the last
    /// event with that id, or all of them when no event has it (or the header is absent).
    package func steps(resumingAfter lastEventID: String?) -> ArraySlice<HTTPStreamStep> {
        guard let lastEventID, let index = ids.lastIndex(where: { $0 == lastEventID }) else { return steps[...] }
        return steps[(index + 1)...]
    }
}
