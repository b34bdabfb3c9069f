import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Recording as a server does it, for ``StubServer`` and the admin API alike: start and stop the
/// ``Recorder``, turn what it kept (or the journal's forwarded requests) into stubs with
/// ``StubWriter``, write them and add them to the server.
///
/// Stopping writes files and builds route tables: call it off the event loops (the admin API runs on
/// its worker threads).
struct Recordings: Sendable {
    let recorder: Recorder
    let store: StubStore
    let journal: RequestJournal
    /// The server's stubs directory: where a persisted recording goes unless its spec names another.
    let stubsDirectory: URL?

    var status: RecordingStatus { recorder.status }

    func start(_ spec: RecordingSpec) throws(RecordingError) {
        guard ProxySettings.isForwardingAvailable else { throw RecordingError(kind: .unavailable) }
        // Refused before anything is forwarded, so no recording is lost at stop.
        if spec.persist, let directory = spec.directory ?? stubsDirectory,
            let problem = StubsFolderWritability.problem(writingInto: directory)
        {
            throw RecordingError(kind: .readOnlyFolder(problem))
        }
        defer { store.refreshRecording { recorder.route != nil } }
        try recorder.start(spec)
    }

    /// Ends the recording: its stubs are written (when persisted) and added to the server.
    func stop() throws(RecordingError) -> (spec: RecordingSpec, stubs: RecordedStubs) {
        let (spec, exchanges, skipped) = try recorder.stop()
        store.refreshRecording { recorder.route != nil }
        var result = try finish(exchanges, spec: spec)
        result.summary.skipped += skipped
        return (spec, result)
    }

    /// Stubs from the journal's forwarded requests (proxy stubs, `--proxy-all`, recordings), oldest
    /// first, filtered as `spec` says (its target is not used); with `allowNonProxied`, stub answers too.
    /// - Parameter ids: when given, only the entries with these sequence numbers (WireMock's `filters.ids`).
    func snapshot(_ spec: RecordingSpec, allowNonProxied: Bool = false, ids: Set<Int>? = nil) throws(RecordingError)
        -> RecordedStubs
    {
        let filter = spec.filter.map(CompiledRequestPattern.init)
        var exchanges: [RecordedExchange] = []
        var skipped: [RecordingSummary.Skipped] = []
        for entry in journal.entries
        where (entry.proxiedTo != nil || allowNonProxied) && ids?.contains(entry.id) != false {
            guard let response = entry.response, filter?.matches(entry.request) ?? true else { continue }
            let label = "\(entry.request.method) \(entry.request.pathAndQuery)"
            if entry.bodyTruncated {
                skipped.append(
                    .init(
                        request: label,
                        reason: "the journal kept only \(entry.request.body.count) of its "
                            + "\(entry.originalBodyLength) body bytes"))
                continue
            }
            if entry.responseBodyTruncated {
                skipped.append(
                    .init(
                        request: label,
                        reason: "the journal kept only \(response.body.count) of its "
                            + "\(entry.originalResponseBodyLength) response body bytes"))
                continue
            }
            exchanges.append(
                RecordedExchange(
                    request: .init(
                        method: entry.request.method.rawValue, url: String(entry.request.pathAndQuery),
                        headers: entry.request.headers, body: entry.request.body),
                    response: .init(status: response.status.code, headers: response.headers, body: response.body)))
        }
        var result = try finish(exchanges, spec: spec)
        result.summary.skipped += skipped
        return result
    }

    /// Writes (when persisted) and adds the stubs for `exchanges`.
    private func finish(_ exchanges: [RecordedExchange], spec: RecordingSpec) throws(RecordingError) -> RecordedStubs {
        let directory = spec.persist ? spec.directory ?? stubsDirectory : nil
        let result: RecordedStubs
        if let directory {
            if let problem = StubsFolderWritability.problem(writingInto: directory) {
                throw RecordingError(kind: .readOnlyFolder(problem))
            }
            let writer = StubWriter(
                root: directory, displayRoot: StubsDirectory.displayPath(of: directory), options: spec.writer)
            do {
                result = try writer.writeStubs(exchanges)
            } catch {
                throw RecordingError(kind: .cannotWrite(error))
            }
        } else {
            result = StubWriter(root: URL(fileURLWithPath: "."), options: spec.writer).stubs(exchanges)
        }
        // Runtime stubs at first; those written into this server's own folder then count as loaded
        // from there, so a reset keeps them (as WireMock's persistent stubs).
        store.add(
            result.mappings.map { mapping in
                var mapping = mapping
                mapping.source = nil
                return mapping
            })
        if let directory, directory.standardizedFileURL == stubsDirectory?.standardizedFileURL {
            var sources: [String: String] = [:]
            for mapping in result.mappings { sources[mapping.id] = mapping.source }
            store.adoptAsFileMappings(sources)
        }
        return result
    }
}
