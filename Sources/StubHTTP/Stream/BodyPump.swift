/// When a streamed body asks its source for more, and what each piece the source gives means. Pure: no
/// I/O; the connection reports how many bytes of the response wait in it and carries out the ``Step``.
///
/// At most one request to the source is outstanding. A new one goes out only while fewer than `lowWater`
/// bytes are queued, and asks for no more than `highWater` minus those (less the chunk framing), so the
/// queue never holds more than `highWater` bytes. With a known length the pump counts the bytes down: the
/// source may neither overshoot it nor end short of it.
struct BodyPump: Sendable, Hashable {
    enum Step: Sendable, Hashable {
        /// Nothing to do now.
        case none
        /// Ask the source for at most this many bytes.
        case pull(maxBytes: Int)
        /// Queue the piece that arrived (framed) and flush.
        case append
        /// The body is complete: end it and finish the response.
        case finish
        /// The source broke its promise: close the connection without completing the response.
        case fail(Failure)
    }

    enum Failure: Sendable, Hashable {
        /// More bytes than the announced length.
        case tooLong
        /// The source ended before the announced length.
        case tooShort
        /// A piece larger than asked for: queuing it would pass the bound.
        case overBound
    }

    let highWater: Int
    let lowWater: Int
    /// Bytes of framing each piece adds to the queue (a chunk's size line and CRLFs).
    let framingOverhead: Int
    /// Bytes still owed under a known length; `nil` when the body ends when the source says so.
    private(set) var remaining: Int?
    /// The `maxBytes` of the request outstanding, if any.
    private(set) var asked: Int?
    /// Finished or failed: no more steps.
    private(set) var ended = false

    init(
        contentLength: Int?, framingOverhead: Int = 0,
        highWater: Int = HTTPBodyStreaming.highWater, lowWater: Int = HTTPBodyStreaming.lowWater
    ) {
        remaining = contentLength
        self.framingOverhead = framingOverhead
        self.highWater = highWater
        self.lowWater = min(lowWater, highWater - framingOverhead - 1)
    }

    /// The connection's queue changed (a flush wrote some of it, or a piece was queued).
    mutating func queueChanged(queued: Int) -> Step {
        guard asked == nil, !ended else { return .none }
        if remaining == 0 {
            ended = true
            return .finish
        }
        guard queued < lowWater else { return .none }
        var room = highWater - queued - framingOverhead
        if let remaining { room = min(room, remaining) }
        asked = room
        return .pull(maxBytes: room)
    }

    /// The source answered the outstanding request: `count` bytes, or `nil` for the end of the body.
    mutating func received(_ count: Int?) -> Step {
        guard let maxBytes = asked, !ended else { return .none }
        asked = nil
        guard let count else {
            ended = true
            if let remaining, remaining > 0 { return .fail(.tooShort) }
            return .finish
        }
        if let remaining, count > remaining {
            ended = true
            return .fail(.tooLong)
        }
        if count > maxBytes {
            ended = true
            return .fail(.overBound)
        }
        remaining = remaining.map { $0 - count }
        return .append
    }

    /// The response is abandoned (the connection closes). `true` when the source still has to be told.
    mutating func cancel() -> Bool {
        defer { ended = true }
        return !ended
    }
}
