/// A request matcher stubserver does not implement: one of WireMock's operators (`equalToXml`,
/// `matchesXPath`, `before`, `and`, …) or request fields (`multipartPatterns`, `host`, `customMatcher`, …).
///
/// A stub that has one never matches, so it never answers more than its author wrote; its load warning,
/// `stubserver check` and its near-miss reports say which matcher and where.
package struct UnsupportedMatcher: Sendable, Hashable {
    /// The operator or field, e.g. `equalToXml`.
    package let name: String
    /// Where it is in the stub, e.g. `request.bodyPatterns[0]`.
    package let field: String

    package init(name: String, field: String) {
        self.name = name
        self.field = field
    }

    /// The line for `stubserver check` and the load log.
    package var message: String {
        "\(field): '\(name)' is not supported by stubserver, so this stub never matches"
    }
}
