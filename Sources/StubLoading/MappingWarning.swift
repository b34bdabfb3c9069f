import StubTemplating

/// Something in a mapping that stubserver ignores: a WireMock feature it does not support, or a
/// field it does not know. Loading goes on; ``StubsDirectory`` groups warnings per field.
public struct MappingWarning: Sendable, Hashable, CustomStringConvertible {
    /// What kind of thing is ignored.
    public enum Kind: Sendable, Hashable {
        /// A WireMock field stubserver does not implement and that does not constrain which requests
        /// match (`postServeActions`, …): it is ignored.
        case unsupported
        /// A request matcher or field stubserver does not implement (`equalToXml`, `multipartPatterns`,
        /// or one nobody knows): the stub never matches, rather than matching more than its author wrote.
        case neverMatches
        /// A field neither stubserver nor WireMock knows.
        case unknown
        /// A modifier that has no effect on the matcher it is attached to (`caseInsensitive` on `contains`).
        case noEffect
        /// The stub's `bodyFileName` is missing from `__files` (`reason` says which): the stub answers
        /// 500 saying so (``StubsLoadOptions/strictBodyFiles`` makes it an error instead).
        case answers500(reason: String)
        /// A template calls a helper stubserver does not implement (one of no WireMock core, such as a
        /// custom extension's): a response that reaches it answers 500 naming it, as in WireMock.
        case unknownHelper(String)
        /// A template's `fake` / `random` names a key stubserver has no fake data for
        /// (`Name.firstname`): a response that reaches it answers 500 naming it.
        case unknownFakeDataKey(String)
        /// With ``StubsLoadOptions/lenientMatchers``, a matcher WireMock loads but can never match with (a
        /// JSONPath it cannot parse, `reason` says why): the stub loads and never matches, as in WireMock.
        case invalidNeverMatches(reason: String)
    }

    public var kind: Kind
    /// The field name, e.g. `scenarioName`.
    public var field: String
    /// Where it was found, e.g. `request` or `request.headers.Accept`; grouping ignores array indices.
    public var context: String
    /// The stub file (as displayed), if any.
    public var file: String?

    public init(kind: Kind, field: String, context: String, file: String?) {
        self.kind = kind
        self.field = field
        self.context = context
        self.file = file
    }

    /// The message without the file: e.g. `'scenarioName' is not supported by stubserver and is ignored`.
    public var description: String {
        switch kind {
        case .unsupported: "'\(field)' is not supported by stubserver and is ignored"
        case .neverMatches: "'\(field)' in \(context) is not supported by stubserver: the stub never matches"
        case .unknown: "unknown field '\(field)' in \(context) is ignored"
        case .noEffect: "'\(field)' has no effect in \(context) and is ignored"
        case .answers500(let reason):
            "\(context).\(field): \(reason); the stub answers 500 (--strict makes this an error)"
        case .unknownHelper(let helper):
            "\(context).\(field): template helper '\(helper)' is not implemented by stubserver (it is in no WireMock "
                + "core); a response that uses it answers 500 naming it"
        case .invalidNeverMatches(let reason):
            "\(context).\(field): \(reason); the stub never matches, as in WireMock (--lenient)"
        case .unknownFakeDataKey(let key):
            "\(context).\(field): \(FakeDataKey.unknownMessage(key)); a response that uses it answers 500 naming it"
        }
    }
}
