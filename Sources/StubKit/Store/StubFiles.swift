#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a server's file stubs come from: its stubs directory, read with the configuration's load options, then
/// the stubs made from its OpenAPI documents.
///
/// Start-up, ``StubServer/reloadStubs()`` (`--watch`) and the admin API's resets (`POST /__admin/reset` and
/// `POST /__admin/mappings/reset`, which read the files again, as WireMock does) all load through it.
struct StubFiles: Sendable {
    /// The stubs directory (`mappings/`, `__files/`); `nil` for a server without one.
    let directory: URL?
    let options: StubsLoadOptions
    /// The stubs made from the configuration's OpenAPI documents, after the directory's (kept on every reload).
    let openAPIStubs: [StubMapping]

    /// The directory's stubs, then ``openAPIStubs``.
    /// - Throws: the loader's error, naming the file and field at fault.
    func load() throws(StubsLoadError) -> StubsLoadResult {
        guard let directory else { return StubsLoadResult(mappings: openAPIStubs, warningDetails: []) }
        var loaded = try StubsDirectory.load(
            directory, displayRoot: StubsDirectory.displayPath(of: directory), options: options)
        loaded.mappings += openAPIStubs
        return loaded
    }
}
