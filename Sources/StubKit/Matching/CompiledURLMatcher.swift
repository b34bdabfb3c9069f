import Foundation

/// A ``URLMatcher`` compiled once. A class, so trying it borrows it instead of copying it.
final class CompiledURLMatcher: Sendable {
    let source: URLMatcher
    private let kind: Kind

    private enum Kind: Sendable {
        case url(String)
        case urlPath(String)
        case urlPattern(CompiledRegex)
        case urlPathPattern(CompiledRegex)
        case template(regex: CompiledRegex, names: [String])
    }

    init(_ source: URLMatcher) {
        self.source = source
        switch source {
        case let .url(value): kind = .url(value)
        case let .urlPath(value): kind = .urlPath(value)
        case let .urlPattern(pattern): kind = .urlPattern(CompiledRegex(pattern))
        case let .urlPathPattern(pattern): kind = .urlPathPattern(CompiledRegex(pattern))
        case let .urlPathTemplate(template):
            let (regex, names) = Self.compileTemplate(template)
            kind = .template(regex: regex, names: names)
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
        case let .urlPattern(regex), let .urlPathPattern(regex), let .template(regex, _): regex.compileError
        default: nil
        }
    }

    /// What the matcher compares: the path and query for `url`/`urlPattern`, else the raw path.
    func subject(_ context: RequestContext) -> String {
        switch kind {
        case .url, .urlPattern: context.url
        default: context.rawPath
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

    /// Whether the URL matches, computing no distance and no path parameters (the route table's fast
    /// path; ask ``parameters(_:)`` for the winner's).
    func matches(_ context: RequestContext) -> Bool {
        switch kind {
        case let .url(expected): expected == context.url
        case let .urlPath(expected): expected == context.rawPath
        case let .urlPattern(regex): regex.matchesWhole(context.url)
        case let .urlPathPattern(regex): regex.matchesWhole(context.rawPath)
        case let .template(regex, _): regex.matchesWhole(context.rawPath)
        }
    }

    /// The decoded `{name}` segments of a template that matches; empty for the other kinds.
    func parameters(_ context: RequestContext) -> [String: String] {
        guard case .template = kind else { return [:] }
        return templateParameters(context) ?? [:]
    }

    private func templateParameters(_ context: RequestContext) -> [String: String]? {
        guard case let .template(regex, names) = kind, let groups = regex.wholeMatchGroups(context.rawPath) else { return nil }
        var parameters: [String: String] = [:]
        for (name, value) in zip(names, groups) { parameters[name] = PercentDecoding.decode(value, plusAsSpace: false) }
        return parameters
    }

    /// `/users/{username}/repos/{repo}` → `\A(?:/users/([^/]+)/repos/([^/]+))\z` and the names. Each
    /// `{name}` takes one non-empty path segment; the rest is literal (compared with the raw path).
    static func compileTemplate(_ template: String) -> (CompiledRegex, [String]) {
        var pattern = "", literal = "", names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            literal += rest[..<open]
            pattern += NSRegularExpression.escapedPattern(for: literal)
            literal = ""
            names.append(String(rest[rest.index(after: open)..<close]))
            pattern += "([^/]+)"
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: literal + rest)
        return (CompiledRegex(pattern), names)
    }
}
