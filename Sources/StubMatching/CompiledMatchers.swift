import StubHTTP
import StubModel
import StubXML

/// The matchers a loader compiled while checking stub files, by source: the route table built from those stubs
/// takes their compiled operands (regexes, JSONPaths, XML documents, XPaths, schemas, GraphQL queries, date
/// formats) from here instead of compiling them again. A class shared by the loader's decoders and the table build.
package final class CompiledMatchers: Sendable {
    private let bySource = LockedValue<[StringMatcher: CompiledStringMatcher]>([:])
    private let graphQLQueries = LockedValue<[String: Result<String, GraphQLNormalizationError>]>([:])
    private let dateFormats = LockedValue<[String: ActualDateFormat]>([:])

    package init() {}

    /// `source` compiled (or never matching, with its ``CompiledStringMatcher/compileFailure``): compiled by the
    /// first call, the same object after.
    package func compile(_ source: StringMatcher) -> CompiledStringMatcher {
        Self.once(source, in: bySource) { CompiledStringMatcher($0) }
    }

    /// A GraphQL document's normal form, or why it has none (``CompiledGraphQLMatcher/normalizedQuery(_:)``):
    /// normalised by the first call.
    package func normalizedQuery(_ text: String) -> Result<String, GraphQLNormalizationError> {
        Self.once(text, in: graphQLQueries, CompiledGraphQLMatcher.normalizedQuery)
    }

    /// An `actualFormat` as the `dateTime` matchers read it: read by the first call.
    package func actualFormat(_ format: String) -> ActualDateFormat {
        Self.once(format, in: dateFormats, ActualDateFormat.init)
    }

    /// `table[key]`, made by `make` the first time.
    private static func once<Key: Hashable, Value>(
        _ key: Key, in table: LockedValue<[Key: Value]>, _ make: (Key) -> Value
    ) -> Value {
        if let known = table.withLock({ $0[key] }) { return known }
        let made = make(key)
        table.withLock { $0[key] = made }
        return made
    }

    /// What ``compile(_:)`` compiled for `source`, when it compiled.
    func kind(of source: StringMatcher) -> CompiledStringMatcher.Kind? {
        guard let kind = bySource.withLock({ $0[source]?.kind }) else { return nil }
        if case .invalid = kind { return nil }
        return kind
    }

    /// The regex ``compile(_:)`` compiled for `.matches(pattern)`.
    func regex(_ pattern: String) -> CompiledRegex? {
        guard case let .matches(regex)? = kind(of: .matches(pattern)) else { return nil }
        return regex
    }

    /// The JSONPath ``compile(_:)`` compiled for `.matchesJsonPath(expression, nil)`.
    func jsonPath(_ expression: String) -> JSONPathExpression? {
        guard case let .matchesJsonPath(path, _)? = kind(of: .matchesJsonPath(expression, nil)) else { return nil }
        return path
    }

    /// The XPath ``compile(_:)`` compiled for `.matchesXPath(expression, namespaces: namespaces, nil)`.
    func xPath(_ expression: String, namespaces: [String: String]) -> StubXML.XPathExpression? {
        let source = StringMatcher.matchesXPath(expression, namespaces: namespaces, nil)
        guard case let .matchesXPath(path, _)? = kind(of: source) else { return nil }
        return path
    }
}
