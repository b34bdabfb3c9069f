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

    public init(globalResponseTemplating: Bool = false) {
        self.globalResponseTemplating = globalResponseTemplating
    }
}

extension ResponseDefinition {
    /// Whether this response is a template under `options`.
    func isTemplated(under options: StubsLoadOptions) -> Bool {
        isTemplated(globally: options.globalResponseTemplating)
    }
}
