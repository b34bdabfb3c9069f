import Foundation

/// A ``URLMatcher`` compiled once.
struct CompiledURLMatcher: Sendable {
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
        case let .urlPattern(regex): return (regex.matchesWhole(context.url) ? 0 : 1, [:])
        case let .urlPathPattern(regex): return (regex.matchesWhole(context.rawPath) ? 0 : 1, [:])
        case let .template(regex, names):
            guard let groups = regex.wholeMatchGroups(context.rawPath) else { return (1, [:]) }
            var parameters: [String: String] = [:]
            for (name, value) in zip(names, groups) { parameters[name] = PercentDecoding.decode(value, plusAsSpace: false) }
            return (0, parameters)
        }
    }

    /// Whether the URL matches, without computing a distance (the route table's fast path).
    func matches(_ context: RequestContext) -> [String: String]? {
        switch kind {
        case let .url(expected): return expected == context.url ? [:] : nil
        case let .urlPath(expected): return expected == context.rawPath ? [:] : nil
        default:
            let result = match(context)
            return result.distance == 0 ? result.parameters : nil
        }
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
