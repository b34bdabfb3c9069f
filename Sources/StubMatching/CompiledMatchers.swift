import StubHTTP
import StubModel
import StubXML

/// The matchers a loader compiled while checking stub files, by source: the route table built from those stubs
/// takes their compiled operands (regexes, JSONPaths, XML documents, XPaths, schemas) from here instead of
/// compiling them again. A class shared by the loader's decoders and the table build.
package final class CompiledMatchers: Sendable {
    private let bySource = LockedValue<[StringMatcher: CompiledStringMatcher]>([:])

    package init() {}

    /// `source` compiled (or never matching, with its ``CompiledStringMatcher/compileFailure``): compiled by the
    /// first call, the same object after.
    package func compile(_ source: StringMatcher) -> CompiledStringMatcher {
        if let known = bySource.withLock({ $0[source] }) { return known }
        let compiled = CompiledStringMatcher(source)
        bySource.withLock { $0[source] = compiled }
        return compiled
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
