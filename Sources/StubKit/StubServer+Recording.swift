#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Recording stubs from a real API: while recording, every request is forwarded to the target and
/// each exchange kept; stopping turns them into stubs (secrets left out, see ``StubWriter``), writes
/// them and serves them.
extension StubServer {
    /// Starts recording: from now on every request (stubs included) is forwarded to `spec.target`.
    ///
    /// ```swift
    /// try server.startRecording(RecordingSpec(target: URL(string: "https://api.github.com")!))
    /// ```
    /// - Throws: ``RecordingError`` when already recording (naming that target) or the target is not
    ///   an http(s) URL.
    public func startRecording(_ spec: RecordingSpec) throws(RecordingError) {
        try recordings.start(spec)
    }

    /// Stops recording: one stub per distinct request is written (into ``RecordingSpec/directory``, else
    /// the stubs directory, unless ``RecordingSpec/persist`` is off) and added to this server.
    /// Writes files: call it from a thread or task of your own.
    /// - Returns: the summary (what was written, which secrets were left out) and the mappings.
    /// - Throws: ``RecordingError`` when not recording or a file cannot be written.
    public func stopRecording() throws(RecordingError) -> RecordedStubs {
        try recordings.stop().stubs
    }

    /// Whether a recording is in progress, was stopped, or never started.
    public var recordingStatus: RecordingStatus { recordings.status }
}
