import StubModel

/// The server settings that change what a stub means, given as one value to everything that reads, checks
/// or prepares stubs: the stubs directory, `stubserver check`, the admin API, stubs added in Swift and the
/// route table's prepared responses.
///
/// ```swift
/// let loaded = try StubsDirectory.load(stubs, options: StubsLoadOptions(globalResponseTemplating: true))
/// ```
public struct StubsLoadOptions: Sendable, Hashable {
    /// Every response is a template, as with WireMock's `--global-response-templating`; otherwise only
    /// those with `"transformers": ["response-template"]`. Templates are checked when a stub is read.
    public var globalResponseTemplating: Bool
    /// A `bodyFileName` missing from `__files` is an error, as `stubserver check` reports it (`--strict`).
    /// Otherwise, as in WireMock, the stub loads with a warning and answers 500 saying which file is
    /// missing, so one broken stub does not take down the others. The same goes for a name that escapes
    /// `__files` or cannot be read (never opened), and for a `proxyBaseUrl` that is not a URL.
    public var strictBodyFiles: Bool
    /// A stub using a request matcher or request field stubserver does not implement (a WireMock
    /// extension's `customMatcher`, say) loads with a warning and never matches (`--lenient`). Otherwise
    /// it is an error naming the file, the field and what stubserver supports there. Either way such a
    /// stub never matches more than its author wrote.
    public var lenientMatchers: Bool
    /// The server's virtual hosts (``StubServer/Configuration/virtualHosts``): a mapping file under
    /// `mappings/NAME/` for one of them (any case) matches only requests to that host, as if its request had
    /// `"host": {"equalTo": "NAME", "caseInsensitive": true}`; a `host` matcher of its own that says otherwise is
    /// an error. Other folders are ordinary folders. Default none.
    public var virtualHosts: [String]

    /// Creates load options; each defaults to WireMock's behaviour.
    public init(
        globalResponseTemplating: Bool = false, strictBodyFiles: Bool = false, lenientMatchers: Bool = false,
        virtualHosts: [String] = []
    ) {
        self.globalResponseTemplating = globalResponseTemplating
        self.strictBodyFiles = strictBodyFiles
        self.lenientMatchers = lenientMatchers
        self.virtualHosts = virtualHosts
    }
}

extension ResponseDefinition {
    /// Whether this response is a template under `options`.
    package func isTemplated(under options: StubsLoadOptions) -> Bool {
        isTemplated(globally: options.globalResponseTemplating)
    }
}
