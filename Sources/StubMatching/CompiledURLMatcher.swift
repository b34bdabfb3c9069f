import StubModel

/// A ``URLMatcher`` compiled once. A class, so trying it borrows it instead of copying it.
final class CompiledURLMatcher: Sendable {
    let source: URLMatcher
    private let kind: Kind

    private enum Kind: Sendable {
        case url(String)
        case urlPath(String)
        case urlPattern(CompiledRegex)
        case urlPathPattern(CompiledRegex)
        case template(PathTemplate)
    }

    /// - Parameters:
    ///   - owner: the stub to name when a pattern's evaluation runs out of budget.
    ///   - compiled: the regexes the loader compiled, taken instead of compiling them again.
    init(_ source: URLMatcher, owner: RegexOwner? = nil, reusing compiled: CompiledMatchers? = nil) {
        self.source = source
        func regex(_ pattern: String) -> CompiledRegex {
            compiled?.regex(pattern)?.owned(by: owner) ?? CompiledRegex(pattern, owner: owner)
        }
        switch source {
        case let .url(value): kind = .url(value)
        case let .urlPath(value): kind = .urlPath(value)
        case let .urlPattern(pattern): kind = .urlPattern(regex(pattern))
        case let .urlPathPattern(pattern): kind = .urlPathPattern(regex(pattern))
        case let .urlPathTemplate(template): kind = .template(PathTemplate(template))
        }
    }

    /// The one raw path this matcher accepts, if it accepts only one: what ``RouteTable`` indexes by.
    var literalPath: String? {
        switch source {
        case let .url(value): value.firstIndex(of: "?").map { String(value[..<$0]) } ?? value
        case let .urlPath(value): value
        case let .urlPathTemplate(template): template.contains("{") ? nil : template
        case .urlPattern, .urlPathPattern: nil
        }
    }

    var compileError: String? {
        switch kind {
        case let .urlPattern(regex), let .urlPathPattern(regex): regex.compileError
        case .url, .urlPath, .template: nil
        }
    }

    /// What ``RouteGate`` can check on bytes before asking this matcher.
    enum Precheck: Sendable {
        /// The URL (`onURL`) or raw path equals this text (Swift `==`, as ``matches(_:)`` compares).
        case equal(String, onURL: Bool)
        /// The URL or raw path passes this prefilter; the regex still decides.
        case affixes(RegexPrefilter, onURL: Bool)
        /// The raw path has this many `/`; the template still decides.
        case slashes(Int)
    }

    var precheck: Precheck {
        switch kind {
        case let .url(value): .equal(value, onURL: true)
        case let .urlPath(value): .equal(value, onURL: false)
        case let .urlPattern(regex): .affixes(regex.prefilter, onURL: true)
        case let .urlPathPattern(regex): .affixes(regex.prefilter, onURL: false)
        case let .template(template): .slashes(template.slashCount)
        }
    }

    /// What the matcher compares: the path and query for `url`/`urlPattern`, else the raw path.
    func subject(_ context: RequestContext) -> String {
        switch kind {
        case .url, .urlPattern: context.url
        case .urlPath, .urlPathPattern, .template: context.rawPath
        }
    }

    /// 0 and the template's path parameters on a match; else a distance in (0, 1] (normalised
    /// Levenshtein for exact URLs, 1 for patterns and templates).
    func match(_ context: RequestContext) -> (distance: Double, parameters: [String: String]) {
        switch kind {
        case let .url(expected): return (StringDistance.normalisedLevenshtein(expected, context.url), [:])
        case let .urlPath(expected): return (StringDistance.normalisedLevenshtein(expected, context.rawPath), [:])
        case .urlPattern, .urlPathPattern: return (matches(context) ? 0 : 1, [:])
        case .template:
            guard let parameters = templateParameters(context) else { return (1, [:]) }
            return (0, parameters)
        }
    }

    /// ``match(_:)``'s distance, with an exact URL's edit distance estimated in linear time
    /// (``StringDistance/estimate(_:_:)``).
    func cheapDistance(_ context: RequestContext) -> Double {
        switch kind {
        case let .url(expected): StringDistance.estimate(expected, context.url)
        case let .urlPath(expected): StringDistance.estimate(expected, context.rawPath)
        case .urlPattern, .urlPathPattern, .template: matches(context) ? 0 : 1
        }
    }

    /// Whether the URL matches, computing no distance and no path parameters (the route table's fast
    /// path; ask ``parameters(_:)`` for the winner's).
    func matches(_ context: RequestContext) -> Bool {
        switch kind {
        case let .url(expected): expected == context.url
        case let .urlPath(expected): expected == context.rawPath
        case let .urlPattern(regex): regex.matchesWhole(context.url)
        case let .urlPathPattern(regex): regex.matchesWhole(context.rawPath)
        case let .template(template): template.matches(context.rawPath)
        }
    }

    /// The decoded `{name}` segments of a template that matches; empty for the other kinds.
    func parameters(_ context: RequestContext) -> [String: String] {
        guard case .template = kind else { return [:] }
        return templateParameters(context) ?? [:]
    }

    private func templateParameters(_ context: RequestContext) -> [String: String]? {
        guard case let .template(template) = kind else { return nil }
        return template.parameters(in: context.rawPath)
    }
}
