import StubHTTP
import StubModel

/// Stubs that can never answer because another one always wins over them: the other stub ranks
/// higher (a lower `priority`, or the same priority and added later) and matches every request they
/// match.
///
/// Only what can be proven from the patterns is reported, never a guess: the winner's method is the
/// same or any; its URL matcher is the same, or none, or accepts the one path (or URL) the other stub's
/// exact `urlPath` (or `url`) allows, as the server's matcher says; each of its header, query, cookie
/// and body conditions appears unchanged in the other stub; and nothing else differs. A winner that may stop matching (a required scenario state,
/// a use limit, a matcher that does not compile) shadows nothing.
///
/// ```swift
/// for shadow in Shadowing.find(in: mappings) {
///     print("\(shadow.hidden.displayName) never answers: \(shadow.winner.displayName) always wins")
/// }
/// ```
public struct Shadowing: Sendable, Hashable {
    /// The stub that never answers.
    public var hidden: StubMapping
    /// Its position in the mappings given.
    public var hiddenIndex: Int
    /// The stub that answers in its place (the first one found, in winner order).
    public var winner: StubMapping
    /// Its position in the mappings given.
    public var winnerIndex: Int

    /// Every stub of `mappings` (in insertion order, as the server adds them) that another always beats.
    public static func find(in mappings: [StubMapping]) -> [Shadowing] {
        find(in: RouteTable(mappings))
    }

    /// Every stub of `table` that another always beats: ``find(in:)-([StubMapping])`` with the patterns the
    /// table compiled (a server's current table), none compiled again.
    public static func find(in table: RouteTable) -> [Shadowing] {
        let mappings = table.mappings
        let broken = Set(table.compileErrors.map(\.index))
        // Winner order: lowest priority first, then the most recently added.
        let ranked = mappings.indices.sorted {
            mappings[$0].priority != mappings[$1].priority ? mappings[$0].priority < mappings[$1].priority : $0 > $1
        }
        var found: [Shadowing] = []
        for (hiddenIndex, hidden) in mappings.enumerated() {
            for winnerIndex in ranked {
                let winner = mappings[winnerIndex]
                // Every stub from here on ranks below `hidden`.
                if winnerIndex == hiddenIndex { break }
                guard !broken.contains(winnerIndex), winner.alwaysMatches,
                    winner.request.matchesEverything(of: hidden.request)
                else { continue }
                found.append(
                    Shadowing(hidden: hidden, hiddenIndex: hiddenIndex, winner: winner, winnerIndex: winnerIndex))
                break
            }
        }
        return found
    }

    /// `"name" (source) never answers: "other" (source) always wins (priority 1, and it matches every request this one does)`.
    public var description: String {
        let rank =
            winner.priority < hidden.priority
            ? "priority \(winner.priority) beats \(hidden.priority)"
            : "same priority \(winner.priority), added later"
        return "\(NearMissReport.title(hidden)) can never answer: \(NearMissReport.title(winner)) always wins "
            + "(\(rank)) and matches every request it matches"
    }
}

extension StubMapping {
    /// Whether matching the pattern is all it takes: no required scenario state, no use limit.
    var alwaysMatches: Bool { requiredScenarioState == nil && times == nil }
}

extension RequestPattern {
    /// Whether every request `other` matches is provably matched by this pattern too.
    func matchesEverything(of other: RequestPattern) -> Bool {
        guard method == .any || method == other.method,
            Self.url(url, covers: other.url),
            Self.named(queryParameters, within: other.queryParameters, ignoringCase: false),
            Self.named(headers, within: other.headers, ignoringCase: true),
            Self.named(cookies, within: other.cookies, ignoringCase: false),
            bodyPatterns.allSatisfy(other.bodyPatterns.contains),
            basicAuthCredentials == nil || basicAuthCredentials == other.basicAuthCredentials
        else { return false }
        // Any condition this check does not know about must be the same on both sides.
        var rest = self
        rest.method = other.method
        rest.url = other.url
        rest.queryParameters = other.queryParameters
        rest.headers = other.headers
        rest.cookies = other.cookies
        rest.bodyPatterns = other.bodyPatterns
        rest.basicAuthCredentials = other.basicAuthCredentials
        return rest == other
    }

    /// No URL matcher covers all; the same one covers itself; otherwise `general` must accept the one
    /// URL (or path) `specific` allows, run through the server's compiled matcher: `urlPath`,
    /// `urlPathPattern` or `urlPathTemplate` against an exact `url`'s path or an exact `urlPath`,
    /// `url` or `urlPattern` against an exact `url`.
    private static func url(_ general: URLMatcher?, covers specific: URLMatcher?) -> Bool {
        guard let general else { return true }
        guard let specific else { return false }
        if general == specific { return true }
        let target: String
        switch (specific, general) {
        // Two different exact values: what the compiled matcher would say, without compiling it (adding a stub
        // checks it against every other one).
        case (.urlPath, .urlPath):
            return false
        case (.url(let url), .url(let expected)):
            // The matcher drops a bare trailing `?` from the request's URL (`/a?` is `/a`).
            return url.hasPrefix("/") && url.hasSuffix("?") && String(url.dropLast()) == expected
        case (.url(let url), _):
            target = url
        case (.urlPath(let path), .urlPathPattern), (.urlPath(let path), .urlPathTemplate):
            // Any query goes with the path: only matchers of the path alone can accept all of them.
            guard !path.contains("?") else { return false }
            target = path
        case (.urlPath, .url), (.urlPath, .urlPattern), (.urlPattern, _), (.urlPathPattern, _), (.urlPathTemplate, _):
            return false
        }
        guard target.hasPrefix("/") else { return false }
        let compiled = CompiledURLMatcher(general)
        guard compiled.compileError == nil else { return false }
        return compiled.matches(RequestContext(StubHTTPRequest(method: .get, target: target)))
    }

    /// Each of `general`'s conditions appears, unchanged, among `specific`'s.
    private static func named(_ general: [NamedMatcher], within specific: [NamedMatcher], ignoringCase: Bool) -> Bool {
        general.allSatisfy { condition in
            specific.contains { candidate in
                candidate.matcher == condition.matcher
                    && (ignoringCase
                        ? candidate.name.lowercased() == condition.name.lowercased() : candidate.name == condition.name)
            }
        }
    }
}

extension Shadowing {
    /// The stub that always wins over the newest stub with `mapping`'s id in `mappings`, if one provably
    /// does: ``find(in:)-([StubMapping])`` for one stub, without building a route table.
    public static func of(_ mapping: StubMapping, in mappings: [StubMapping]) -> Shadowing? {
        of(mapping, in: mappings) { CompiledRequestPattern(mappings[$0].request).compileErrors.isEmpty }
    }

    /// ``of(_:in:)-(_,[StubMapping])`` against a route table, whose compiled patterns say which stubs compile.
    package static func of(_ mapping: StubMapping, in table: RouteTable) -> Shadowing? {
        of(mapping, in: table.mappings) { table.patterns[$0].compileErrors.isEmpty }
    }

    private static func of(_ mapping: StubMapping, in mappings: [StubMapping], compiles: (Int) -> Bool)
        -> Shadowing?
    {
        guard let hiddenIndex = mappings.lastIndex(where: { $0.id == mapping.id }) else { return nil }
        let hidden = mappings[hiddenIndex]
        for (winnerIndex, winner) in mappings.enumerated() where winnerIndex != hiddenIndex {
            guard winner.alwaysMatches,
                winner.priority < hidden.priority || (winner.priority == hidden.priority && winnerIndex > hiddenIndex),
                winner.request.matchesEverything(of: hidden.request),
                compiles(winnerIndex)
            else { continue }
            return Shadowing(hidden: hidden, hiddenIndex: hiddenIndex, winner: winner, winnerIndex: winnerIndex)
        }
        return nil
    }

    /// What the server logs when such a stub is added, with the way out:
    /// `stub GET /users/octocat (ProfileTests.swift:42) can never answer: "GitHub user octocat"
    /// (Stubs/mappings/users-octocat.json) always wins (priority 1 beats 5) and matches every request it
    /// matches; give it priority 1 or remove the other stub`.
    public var warning: String {
        "stub " + description + "; give it priority \(winner.priority) or remove the other stub"
    }
}
