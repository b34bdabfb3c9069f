import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a recording forwards to, which exchanges it keeps and how it writes them: WireMock's
/// recording spec (`POST /__admin/recordings/start`), and what `stubserver record` sets up.
///
/// ```swift
/// var spec = RecordingSpec(target: URL(string: "https://api.github.com")!)
/// spec.filter = RequestPattern(url: .urlPathPattern("/users/.*"))
/// spec.writer.captureHeaders = ["Accept"]
/// try server.startRecording(spec)
/// … // the app talks to server.baseURL
/// let result = try server.stopRecording()     // stubs written to the stubs directory and served
/// print(result.summary)
/// ```
public struct RecordingSpec: Sendable, Hashable {
    /// Where every request goes while recording (`targetBaseUrl`): `http` or `https`, with an optional
    /// path prefix. `nil` only for a forward-proxy recording (``forwardProxy``), whose requests go to their own
    /// hosts.
    public var target: URL?
    /// Record as a forward proxy (`stubserver record --forward-proxy`): a request sent to the server as to a proxy
    /// (in absolute form, or inside a `CONNECT` tunnel) goes to its own host, not ``target``, and its stub
    /// gets a `host` matcher; other requests go to ``target`` if there is one, else the stubs answer them. Default
    /// `false`.
    public var forwardProxy: Bool = false
    /// Only exchanges whose request matches become stubs (`filters`); `nil` keeps them all.
    public var filter: RequestPattern?
    /// How stubs are written: secrets, `captureHeaders`, `repeatsAsScenarios`, `extractBodyCriteria`.
    /// Default: ``StubWriter/Options`` with ``StubWriter/Options/listsUnrecordedSecretHeaders`` on.
    public var writer: StubWriter.Options
    /// Whether stopping writes files (`persist`): into ``directory``, else the server's stubs
    /// directory; with neither, the stubs are only served. Default `true`.
    public var persist: Bool
    /// Where the files go; `nil`: the server's stubs directory.
    public var directory: URL?
    /// The most bytes of requests and responses kept while recording (bodies and header fields);
    /// exchanges beyond it are not recorded and are listed as skipped. Default 256 MiB.
    public var maxBytes: Int

    public init(
        target: URL?, filter: RequestPattern? = nil,
        writer: StubWriter.Options = StubWriter.Options(listsUnrecordedSecretHeaders: true),
        persist: Bool = true, directory: URL? = nil, maxBytes: Int = 256 * 1024 * 1024
    ) {
        self.target = target
        self.filter = filter
        self.writer = writer
        self.persist = persist
        self.directory = directory
        self.maxBytes = maxBytes
    }

    /// A forward-proxy recording (``forwardProxy``), without a target: each proxied request goes to its own host.
    public static func forwardProxy(
        filter: RequestPattern? = nil,
        writer: StubWriter.Options = StubWriter.Options(listsUnrecordedSecretHeaders: true),
        persist: Bool = true, directory: URL? = nil, maxBytes: Int = 256 * 1024 * 1024
    ) -> RecordingSpec {
        var spec = RecordingSpec(
            target: nil, filter: filter, writer: writer, persist: persist, directory: directory, maxBytes: maxBytes)
        spec.forwardProxy = true
        return spec
    }

    /// What is recorded, for messages: the target's URL, or "every host proxied".
    public var source: String {
        let hosts = forwardProxy ? "every host proxied through the server" : nil
        return [target?.absoluteString, hosts].compactMap { $0 }.joined(separator: " and ")
    }
}

/// Whether a server is recording (`GET /__admin/recordings/status`).
public enum RecordingStatus: String, Sendable, Hashable {
    case neverStarted = "NeverStarted"
    case recording = "Recording"
    case stopped = "Stopped"
}

/// Why a recording could not start or stop.
public struct RecordingError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        case alreadyRecording(target: String)
        case notRecording
        case badTarget(String)
        case cannotWrite(StubWriteError)
        /// The folder the stubs would be written into is read-only or inside a bundle.
        case readOnlyFolder(String)
        /// This build cannot forward (the `Slim` trait).
        case unavailable
    }

    package let kind: Kind

    package init(kind: Kind) {
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .alreadyRecording(let target):
            "already recording from \(target); stop that recording first (POST /__admin/recordings/stop)"
        case .notRecording:
            "not recording; start a recording first (POST /__admin/recordings/start)"
        case .badTarget(let target):
            "the recording target '\(target)' is not an http or https URL with a host (e.g. https://api.github.com)"
        case .cannotWrite(let error):
            "the recorded stubs could not be written: \(error)"
        case .readOnlyFolder(let reason):
            "cannot record into this folder: \(reason)"
        case .unavailable:
            "recording forwards requests, and \(ProxySettings.unavailableReason)"
        }
    }
}
