import StubHTTP
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns captured exchanges into stub files in the layout stubserver (and WireMock) loads: one
/// mapping per distinct request in `mappings/`, its body in `__files/`.
///
/// ```swift
/// let writer = StubWriter(root: URL(fileURLWithPath: "Stubs"))
/// let summary = try writer.write(exchanges)   // [RecordedExchange]
/// print(summary)                              // what was written, merged, left out, skipped
/// ```
///
/// What it writes, for `GET /users/octocat` answered 200 with JSON:
/// - `mappings/get-users-octocat.json`: `{"id", "name": "GET /users/octocat", "request": {"method":
///   "GET", "url": "/users/octocat"}, "response": {"status": 200, "headers": {…}, "bodyFileName":
///   "get-users-octocat.json"}, "uuid"}`;
/// - `__files/get-users-octocat.json`: the body.
///
/// The rules:
/// - **Names** come from the method and path (`post-repos-o-r-issues`, `get-root` for `/`), at most
///   80 characters; the extension of a body file from its `Content-Type` (`json`, `png`, `txt`, `bin`).
/// - **Never overwrites**: a name taken by any existing file (in `mappings/` or `__files/`) or by
///   an earlier stub of the same call gets `-2`, `-3`, …; files are created exclusively, and nothing
///   is ever deleted but a body file this call created when its mapping name was taken meanwhile.
/// - **Matching**: `request.url` is the path and query exactly as sent. When a secret query
///   parameter is left out, the stub matches `urlPath` plus the other parameters (`queryParameters`,
///   `equalTo`) instead, so the app's requests still match whatever token they carry. Request
///   headers are matched only when named in ``Options/captureHeaders`` (`equalTo`, ignoring case for
///   those in ``Options/caseInsensitiveHeaders``). A JSON request body is
///   matched with `equalToJson`, other UTF-8 text with `equalTo`; binary bodies are not matched.
/// - **Duplicates** (same method, URL as matched, captured headers and body) become one stub, the
///   first response kept; the summary counts them and says when their responses differed. With
///   ``Options/recordsSequences``, each response that differs from the one before becomes a stub of
///   its own in a WireMock scenario named after the request (`GET /users/octocat`): states
///   `Started`, `2`, `3`, …, the last one repeating, as WireMock's `repeatsAsScenarios` records.
/// - **Secrets** (see ``SecretFilter``) are left out and listed in the summary: secret response
///   headers, secret query parameters, captured secret request headers, and the body matcher of
///   a request whose body has a secret field.
/// - **Bodies**: JSON (a `Content-Type` containing `json` and a body that parses as an object or
///   array) is pretty-printed with ``JSONBodyStyle/prettyPrinted`` (the default): the same members in
///   the same order, numbers and strings as received, only whitespace changes. Every other body, and
///   JSON with ``JSONBodyStyle/asReceived``, is written byte for byte.
/// - **Headers** are replayed as received, except `Content-Length`, `Transfer-Encoding`,
///   `Connection`, `Keep-Alive`, `Date` (the server writes its own), `Content-Encoding` (bodies are
///   stored decoded), HTTP/2 pseudo-headers (`:status`) and secrets.
/// - Exchanges with a status outside 100–599 (HAR's `0` for a request that got no answer) or no
///   method are skipped and listed.
///
/// Writing does file I/O: call it from a task or thread of your own, never an event-loop thread.
public struct StubWriter: Sendable {
    /// How JSON response bodies are written.
    public enum JSONBodyStyle: Sendable, Hashable {
        /// Two-space indentation, one member per line: readable and easy to edit.
        case prettyPrinted
        /// Byte for byte as received.
        case asReceived
    }

    /// What to record and how.
    public struct Options: Sendable, Hashable {
        /// What counts as a secret. Default ``SecretFilter/standard``.
        public var secrets: SecretFilter
        /// Request header names matched with `equalTo` (WireMock's `captureHeaders`). Default none.
        public var captureHeaders: [String]
        /// Of ``captureHeaders``, those whose values are matched ignoring case:
        /// `{"equalTo": "…", "caseInsensitive": true}`, as WireMock records
        /// `"captureHeaders": {"Accept": {"caseInsensitive": true}}`. Names compare ignoring case. Default none.
        public var caseInsensitiveHeaders: [String]
        /// Default ``JSONBodyStyle/prettyPrinted``.
        public var jsonBodies: JSONBodyStyle
        /// Whether request bodies are matched (`equalToJson`/`equalTo`). Default `true`.
        public var matchRequestBodies: Bool
        /// Whether a request repeated with a different response becomes a WireMock scenario answering
        /// each response in turn (`--record-sequences`), instead of one stub with the first. Default `false`.
        public var recordsSequences: Bool
        /// Bodies this small stay in the mapping (`body`, `base64Body`) instead of a file in `__files/`
        /// (WireMock's `extractBodyCriteria`). Default `nil`: every body goes to a file.
        public var inlineBodies: BodyExtraction?
        /// Whether secret request headers seen but not captured (an `Authorization` the stubs do not
        /// match on) are listed in the summary too, as recording does. Default `false`.
        public var listsUnrecordedSecretHeaders: Bool

        public init(
            secrets: SecretFilter = .standard, captureHeaders: [String] = [],
            jsonBodies: JSONBodyStyle = .prettyPrinted, matchRequestBodies: Bool = true,
            recordsSequences: Bool = false, inlineBodies: BodyExtraction? = nil,
            listsUnrecordedSecretHeaders: Bool = false, caseInsensitiveHeaders: [String] = []
        ) {
            self.secrets = secrets
            self.captureHeaders = captureHeaders
            self.caseInsensitiveHeaders = caseInsensitiveHeaders
            self.jsonBodies = jsonBodies
            self.matchRequestBodies = matchRequestBodies
            self.recordsSequences = recordsSequences
            self.inlineBodies = inlineBodies
            self.listsUnrecordedSecretHeaders = listsUnrecordedSecretHeaders
        }

        /// Whether captured header `name`'s values are matched ignoring case (``caseInsensitiveHeaders``).
        package func ignoresCase(ofHeader name: String) -> Bool {
            caseInsensitiveHeaders.contains { StubHTTPHeaders.equalsIgnoringCase($0, name) }
        }
    }

    /// The stubs directory: `mappings/` and `__files/` are created in it as needed.
    public var root: URL
    /// How the directory is named in messages and the summary (e.g. `Stubs`).
    public var displayRoot: String
    public var options: Options

    public init(root: URL, displayRoot: String? = nil, options: Options = Options()) {
        self.root = root
        self.displayRoot = displayRoot ?? root.relativePath
        self.options = options
    }

    /// Writes one stub per distinct exchange, in the order first seen.
    /// - Returns: What was written, merged, left out and skipped.
    /// - Throws: ``StubWriteError`` when a folder cannot be created or a file cannot be written; the
    ///   files written before the failure stay.
    public func write(_ exchanges: [RecordedExchange]) throws(StubWriteError) -> RecordingSummary {
        try writeStubs(exchanges).summary
    }

    /// Writes one stub per distinct exchange as ``write(_:)`` does, and returns the mappings written
    /// too (file bodies with their bytes, ``StubMapping/source`` naming the file), ready to serve.
    public func writeStubs(_ exchanges: [RecordedExchange]) throws(StubWriteError) -> RecordedStubs {
        var summary = RecordingSummary(directory: displayRoot)
        let planned = plan(exchanges, into: &summary)
        var files = FileSink(root: root, displayRoot: displayRoot)
        try files.createFolders()
        var scenarioNames: Set<String> = []
        var mappings: [StubMapping] = []
        for stub in planned {
            let written = try Self.expand(stub, scenarioNames: &scenarioNames) {
                (plan, step, id) throws(StubWriteError) in
                try files.write(
                    stub, response: plan, step: step, id: id,
                    inline: options.inlineBodies?.keepsInline(plan.body) ?? false)
            }
            summary.stubs += written.map(\.summary)
            mappings += written.map(\.mapping)
        }
        return RecordedStubs(summary: summary, mappings: mappings)
    }

    /// The stubs ``writeStubs(_:)`` would write, built in memory with every body inline (`body` for
    /// text, `base64Body` for other bytes); no file is touched. The summary's ``RecordingSummary/directory``
    /// and mapping files are empty.
    public func stubs(_ exchanges: [RecordedExchange]) -> RecordedStubs {
        var summary = RecordingSummary(directory: "")
        let planned = plan(exchanges, into: &summary)
        var scenarioNames: Set<String> = []
        var mappings: [StubMapping] = []
        for stub in planned {
            let written = Self.expand(stub, scenarioNames: &scenarioNames) { plan, step, id in
                WrittenStub(
                    summary: Self.summaryStub(stub, step: step, mappingFile: "", bodyFile: nil),
                    mapping: Self.mapping(stub, response: plan, body: Self.inlineBody(plan.body), step: step, id: id))
            }
            summary.stubs += written.map(\.summary)
            mappings += written.map(\.mapping)
        }
        return RecordedStubs(summary: summary, mappings: mappings)
    }
}

/// What ``StubWriter/writeStubs(_:)`` and ``StubWriter/stubs(_:)`` made: the report and the mappings.
public struct RecordedStubs: Sendable {
    /// What was written, merged, left out and skipped.
    public var summary: RecordingSummary
    /// One mapping per stub, in the summary's order.
    public var mappings: [StubMapping]
}

/// Why ``StubWriter`` could not write, naming the path: `Stubs/mappings: cannot be created: Permission denied`.
public struct StubWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// One stub of a recorded sequence (``StubWriter/Options/recordsSequences``): a request answered
/// differently over time becomes a WireMock scenario named after the request (`GET /users/octocat`,
/// `… #2` when taken), states `Started`, `2`, `3`, …; the last stub moves nowhere, so its response
/// keeps answering.
struct ScenarioStep {
    var name: String
    var required: String
    /// `nil` for the last response, which then keeps answering.
    var next: String?
}
