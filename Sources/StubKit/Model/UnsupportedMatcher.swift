/// A request matcher stubserver does not implement: one of WireMock's operators (`equalToXml`,
/// `matchesXPath`, `before`, `and`, …) or request fields (`multipartPatterns`, `host`, `customMatcher`, …).
///
/// A stub that has one never matches, so it never answers more than its author wrote; its load warning,
/// `stubserver check` and its near-miss reports say which matcher and where.
struct UnsupportedMatcher: Sendable, Hashable {
    /// The operator or field, e.g. `equalToXml`.
    let name: String
    /// Where it is in the stub, e.g. `request.bodyPatterns[0]`.
    let field: String

    /// The line for `stubserver check` and the load log.
    var message: String {
        "\(field): '\(name)' is not supported by stubserver, so this stub never matches"
    }
}
