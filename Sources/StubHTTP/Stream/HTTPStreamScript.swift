/// One write of a scripted stream (``HTTPResponseStream/play(_:then:)``): `bytes`, sent once `delay` has
/// passed since the write before (or since the script started).
///
/// ```swift
/// stream.play([HTTPStreamStep(Array("data: one\n\n".utf8)),
///              HTTPStreamStep(after: .milliseconds(50), Array("data: two\n\n".utf8))], then: .finish)
/// ```
public struct HTTPStreamStep: Sendable, Equatable {
    /// How long after the write before this one is sent.
    public var delay: Duration
    /// The bytes of this write (one chunk on a chunked response).
    public var bytes: [UInt8]

    public init(after delay: Duration = .zero, _ bytes: [UInt8]) {
        self.delay = delay
        self.bytes = bytes
    }
}

/// What a scripted stream does after its last step.
public enum HTTPStreamEnd: Sendable, Equatable {
    /// Ends the body properly (the last chunk), keeping the connection when it can.
    case finish
    /// Leaves the response open: more may be written (``HTTPResponseStream/write(_:)``) until
    /// ``HTTPResponseStream/finish()``, the client leaves or the server stops.
    case stayOpen
    /// Closes the connection without ending the body: the client sees a cut response (an error), as
    /// from a server that failed mid-stream.
    case abort
}

/// How a streamed response ended, told to the `onEnd` of ``HTTPResponder/startStreaming(_:after:playing:then:probe:onEnd:)``.
public enum HTTPStreamOutcome: Sendable, Equatable {
    /// The body was ended properly (``HTTPResponseStream/finish()`` or a script's ``HTTPStreamEnd/finish``).
    case finished
    /// The connection closed first: the client left, the stream was aborted, the server stopped, or the
    /// client read too slowly (``HTTPServerConfiguration/maxStreamBacklog``). Also when the stream never
    /// started (the request was answered already).
    case closed
}
