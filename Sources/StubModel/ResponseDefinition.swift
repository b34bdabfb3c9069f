import StubHTTP

/// The response half of a stub mapping (WireMock's `response` object).
public struct ResponseDefinition: Sendable, Hashable {
    /// Where the body comes from. File bodies up to ``BodyFiles/cacheLimit`` are read when the stubs are
    /// loaded; larger ones are read from disk each time they are served.
    public enum Body: Sendable, Hashable {
        case none
        /// `body`: text, sent as UTF-8.
        case text(String)
        /// `jsonBody`: serialized as compact JSON.
        case json(JSONValue)
        /// `base64Body`, decoded.
        case bytes([UInt8])
        /// `bodyFileName`: the name under `__files` and the bytes read from it (none for a file over
        /// ``BodyFiles/cacheLimit``, which stays on disk and is streamed when served).
        case file(name: String, bytes: [UInt8])
    }

    /// Default 200.
    public var status: Int
    /// Overrides the reason phrase.
    public var statusMessage: String?
    /// Headers in source order; a list value in JSON becomes several fields.
    public var headers: StubHTTPHeaders
    public var body: Body
    /// `fixedDelayMilliseconds`, if set.
    public var fixedDelayMilliseconds: Int?
    /// `delayDistribution`: a random delay drawn per request, added to any fixed delay.
    public var delayDistribution: DelayDistribution?
    /// `chunkedDribbleDelay`: the body sent in parts spread over time.
    public var chunkedDribbleDelay: ChunkedDribbleDelay?
    /// `fault`: a broken response instead of this one.
    public var fault: ResponseFault?
    /// The most bytes per second sent on the wire for this response (stubserver's own; in files,
    /// `"metadata": {"stubserver": {"bytesPerSecond": N}}`).
    public var bytesPerSecond: Int?
    /// Never answered: the request is read, journaled and held, with no thread, until the client gives
    /// up (stubserver's own; in files, `"metadata": {"stubserver": {"hang": true}}`). See ``hanging()-method``.
    public var hangs = false
    /// Sent as a stream instead of ``body``: server-sent events or lines, each after its delay (stubserver's
    /// own; in files, `metadata.stubserver.events` or `lines`). See ``events(_:end:)``.
    public var stream: ResponseStream?
    /// A WebSocket: the request is upgraded and the connection follows this script (stubserver's own; in files,
    /// `metadata.stubserver.webSocket`). See ``webSocket(_:)``.
    public var webSocket: WebSocketScript?
    /// WireMock's `transformers`; `"response-template"` makes the response a template
    /// (see ``ResponseDefinition/templated()``).
    public var transformers: [String]
    /// `proxyBaseUrl` and its companions: the answer comes from forwarding the request there, with
    /// ``headers`` added to the upstream's (see ``ProxyDefinition``). The body fields are then unused.
    public var proxy: ProxyDefinition?
    /// For a templated `bodyFileName` naming a template (`users/{{request.path.[1]}}.json`): the
    /// candidate files, read when the stub loaded.
    package var bodyFileSet: BodyFileSet?
    /// For a `bodyFileName` over ``BodyFiles/cacheLimit`` in a response that is not a template: the file,
    /// streamed from disk when served.
    package var streamedBodyFile: StreamedBodyFile?
    /// Why the `bodyFileName` could not be had when the stub loaded (the file is missing): the stub then
    /// answers 500 with this reason instead of its response.
    package var bodyFileProblem: String?
    /// The templates the loader parsed when it checked this response, which serving takes instead of parsing
    /// them again (`ParsedResponse`). Never makes two responses unequal.
    package var loaded = LoadedParts()

    public init(
        status: Int = 200, statusMessage: String? = nil, headers: StubHTTPHeaders = [:], body: Body = .none,
        fixedDelayMilliseconds: Int? = nil, transformers: [String] = []
    ) {
        self.status = status
        self.statusMessage = statusMessage
        self.headers = headers
        self.body = body
        self.fixedDelayMilliseconds = fixedDelayMilliseconds
        self.transformers = transformers
    }
}
