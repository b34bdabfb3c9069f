import StubHTTP
import StubModel

/// An immutable table of stubs that finds the one answering a request, built once per set of stubs.
///
/// The winner is the matching stub with the lowest `priority`; among equal priorities, the most
/// recently added (highest index) wins, as in WireMock. Stubs whose URL names a single path (`url`,
/// `urlPath`, a template without `{}`) are indexed by method and raw path; patterns and templates with a
/// literal first segment (`/users/{id}`, `^/users/.*`) by method and that segment. A request evaluates, in
/// winner order, only the stubs of its path bucket, its first-segment bucket, and the remaining ones
/// (no URL, or a pattern without a literal first segment). Each of those first meets its `RouteGate`,
/// a few byte compares (URL length and literals, slash count, needed header/query names and body) that
/// turn most candidates away without calling into their pattern.
///
/// ```swift
/// let table = RouteTable(mappings)
/// if let found = table.match(request) {
///     serve(found.mapping.response, parameters: found.pathParameters)
/// } else {
///     log(NearMissReport.render(request: request, nearMisses: table.nearMisses(for: request)))
/// }
/// ```
public struct RouteTable: Sendable {
    /// The stubs in insertion order.
    public let mappings: [StubMapping]
    /// Compiled patterns in insertion order.
    let patterns: [CompiledRequestPattern]
    /// The index of the older stubs (from the first), shared with the tables built before this one.
    let base: RouteIndex
    /// The index of the stubs appended since `base` was built, or `nil`: adding a stub indexes only
    /// the few added since the last full build.
    let recent: RouteIndex?
    /// The new versions of the stubs replaced since `base` was built (``RouteFrame/replaced``), or `nil`:
    /// replacing a stub indexes only the few replaced since the last full build.
    let replacements: RouteIndex?
    /// Where the stubs of `base`, `recent` and `replacements` are: removing or replacing a stub leaves
    /// those indexes as they are. A full build happens again once the stubs appended, removed and
    /// replaced since the last one are more than ``recentLimit(total:)``.
    let frame: RouteFrame
    /// The largest request body parsed as JSON for `equalToJson` and `matchesJsonPath`; those matchers
    /// do not match a larger body, and its near-miss report says why. Default 4 MiB.
    public var jsonBodyLimit = MatchSubject.defaultJSONByteLimit

    /// Compiles every stub's pattern and indexes them. `mappings` are in insertion order (later = more
    /// recent).
    public init(_ mappings: [StubMapping]) {
        self.init(mappings, regexWarnings: nil)
    }

    /// - Parameter regexWarnings: where to warn that a URL pattern's evaluation ran out of budget
    ///   (``RegexBudget``), with a key (stub id and pattern) to say it once; `nil` for no warnings.
    /// - Parameters:
    ///   - previous: the table this one replaces: the compiled patterns of stubs whose request pattern and
    ///     name did not change are reused, so adding one stub compiles one pattern.
    ///   - edit: how `mappings` differ from `previous`'s, when known: every stub it does not touch is reused
    ///     by position, unchecked, and the indexes are shared. `nil`: stubs are looked up by id in
    ///     `reusable` (built from `previous` when not given) and compared.
    ///   - compiled: the matchers the loader compiled (``StubsLoadResult``'s), whose operands the patterns
    ///     take instead of compiling them again.
    package init(
        _ mappings: [StubMapping], regexWarnings: (@Sendable (_ key: String, _ line: String) -> Void)?,
        previous: RouteTable? = nil, edit: StubEdit? = nil, reusable: PreviousStubs? = nil,
        reusing compiled: CompiledMatchers? = nil
    ) {
        self.mappings = mappings
        func compile(_ mapping: StubMapping) -> CompiledRequestPattern {
            CompiledRequestPattern(
                mapping.request,
                owner: regexWarnings.map {
                    RegexOwner(stubID: mapping.id, stubName: mapping.displayName, report: $0)
                }, reusing: compiled)
        }
        let edit = previous.flatMap { previous in
            edit.flatMap { $0.fits(previous: previous.count, count: mappings.count) ? $0 : nil }
        }
        guard let previous else {
            patterns = mappings.map(compile)
            (base, recent, replacements, frame) = Self.fullBuild(mappings, patterns)
            return
        }
        var patterns: [CompiledRequestPattern]
        // The replaced stubs whose index entries are stale: a new pattern, or a new priority (their rank).
        var reindexed: [Int] = []
        switch edit {
        case .appended?:
            patterns = previous.patterns
            patterns.reserveCapacity(mappings.count)
            for index in previous.count..<mappings.count { patterns.append(compile(mappings[index])) }
        case let .removed(positions)?:
            patterns = positions.isEmpty ? previous.patterns : previous.patterns.removing(positions)
        case let .replaced(positions)?:
            patterns = previous.patterns
            for index in positions {
                let old = previous.mappings[index], new = mappings[index]
                if old.id != new.id || old.request != new.request || old.displayName != new.displayName {
                    patterns[index] = compile(new)
                    reindexed.append(index)
                } else if old.priority != new.priority {
                    reindexed.append(index)
                }
            }
        case nil:
            let reusable = reusable ?? PreviousStubs(previous.mappings)
            patterns = mappings.map { mapping in
                if let old = reusable.position(of: mapping.id), previous.mappings[old].request == mapping.request,
                    previous.mappings[old].displayName == mapping.displayName
                {
                    return previous.patterns[old]
                }
                return compile(mapping)
            }
        }
        self.patterns = patterns

        var frame = previous.frame
        var replacements = previous.replacements
        var recent = previous.recent
        switch edit {
        case .appended?:
            frame.append(mappings.count - previous.count)
            recent = nil
        case let .removed(positions)?:
            frame.remove(indexes: positions)
        case .replaced?:
            if !reindexed.isEmpty {
                frame.replace(indexes: reindexed)
                replacements = nil
            }
        case nil:
            (base, self.recent, self.replacements, self.frame) = Self.fullBuild(mappings, patterns)
            return
        }
        let shared = previous.base
        let changed = frame.count - shared.range.upperBound + frame.removed.count + frame.replaced.count
        guard changed <= Self.recentLimit(total: mappings.count) else {
            (self.base, self.recent, self.replacements, self.frame) = Self.fullBuild(mappings, patterns)
            return
        }
        if recent == nil, shared.range.upperBound < frame.count {
            let entries = (shared.range.upperBound..<frame.count).compactMap { position in
                frame.index(of: position, skippingReplaced: true).map { (position: position, index: $0) }
            }
            recent = RouteIndex(mappings, patterns, entries: entries, range: shared.range.upperBound..<frame.count)
        }
        if replacements == nil, !frame.replaced.isEmpty {
            let entries = frame.replaced.map { position in
                (position: position, index: frame.index(of: position, skippingReplaced: false) ?? position)
            }
            replacements = RouteIndex(mappings, patterns, entries: entries, range: 0..<frame.count)
        }
        self.base = shared
        self.recent = recent
        self.replacements = replacements
        self.frame = frame
    }

    /// Indexes every stub anew, at its mapping index.
    private static func fullBuild(_ mappings: [StubMapping], _ patterns: [CompiledRequestPattern])
        -> (RouteIndex, RouteIndex?, RouteIndex?, RouteFrame)
    {
        (RouteIndex(mappings, patterns, range: 0..<mappings.count), nil, nil, RouteFrame(count: mappings.count))
    }

    /// The most stubs appended, removed or replaced since the last full build before the next one: about
    /// √n, so that changing n stubs one at a time indexes O(n√n) entries in all instead of O(n²), and a
    /// request meets at most that many stale or extra candidates.
    static func recentLimit(total: Int) -> Int {
        max(32, Int(Double(total).squareRoot()))
    }

    /// The number of stubs.
    public var count: Int { mappings.count }

    /// The stub that answers `request`, or `nil` if none matches.
    public func match(_ request: StubHTTPRequest) -> RouteMatch? {
        match(request, accepting: { _ in true })
    }

    /// The best stub that matches `request` and that `accepting` (given the mapping index) lets answer:
    /// how stateful stubs (scenario states, use limits) are skipped.
    public func match(_ request: StubHTTPRequest, accepting: (Int) -> Bool) -> RouteMatch? {
        match(context(for: request), accepting: accepting)
    }

    /// What matching and near-miss reports read of `request`, each part computed (the body parsed) at
    /// most once: pass it to ``match(_:accepting:)`` and ``nearMisses(for:limit:)`` alike.
    package func context(for request: StubHTTPRequest) -> RequestContext {
        RequestContext(request, jsonByteLimit: jsonBodyLimit)
    }

    /// ``match(_:accepting:)`` on a request's context.
    package func match(_ context: RequestContext, accepting: (Int) -> Bool = { _ in true }) -> RouteMatch? {
        var found = base.firstMatch(context, patterns, frame, skippingReplaced: true, accepting)
        if let recent, let other = recent.firstMatch(context, patterns, frame, skippingReplaced: true, accepting),
            found.map({ precedes(other, $0) }) ?? true
        {
            found = other
        }
        if let replacements,
            let other = replacements.firstMatch(context, patterns, frame, skippingReplaced: false, accepting),
            found.map({ precedes(other, $0) }) ?? true
        {
            found = other
        }
        guard let index = found else { return nil }
        return RouteMatch(in: mappings, at: index, pathParameters: patterns[index].pathParameters(context))
    }

    /// The stubs closest to `request`, nearest first, sorted by ``MatchResult/distance``, ties in winner
    /// order. Empty when there are no stubs.
    ///
    /// The work is bounded whatever the stub count: every stub gets a cheap score (method, and the URL's
    /// common prefix and suffix instead of an edit distance), and only the ``nearMissCandidateLimit``
    /// best-scored are compared in full.
    public func nearMisses(for request: StubHTTPRequest, limit: Int = 3) -> [NearMiss] {
        nearMisses(for: context(for: request), limit: limit)
    }

    /// How many stubs, at most, a near-miss report compares in full: 32.
    public static let nearMissCandidateLimit = 32

    /// ``nearMisses(for:limit:)`` on a request's context (whose body was parsed when matching).
    package func nearMisses(for context: RequestContext, limit: Int = 3) -> [NearMiss] {
        guard limit > 0 else { return [] }
        let candidates = nearMissCandidates(for: context)
        var scored: [(index: Int, result: MatchResult)] = []
        scored.reserveCapacity(candidates.count)
        for index in candidates {
            scored.append((index, patterns[index].evaluate(context)))
        }
        scored.sort {
            $0.result.distance != $1.result.distance
                ? $0.result.distance < $1.result.distance : precedes($0.index, $1.index)
        }
        // Only the stubs shown are explained field by field.
        return scored.prefix(limit).map { scored in
            let index = scored.index
            return NearMiss(
                mapping: mappings[index], index: index, result: patterns[index].evaluate(context, explaining: true))
        }
    }

    /// The mapping indexes of the stubs a near-miss report compares in full: all of them up to
    /// ``nearMissCandidateLimit``, else that many with the best ``CompiledRequestPattern/cheapDistance(_:)``,
    /// ties in winner order.
    func nearMissCandidates(for context: RequestContext) -> [Int] {
        var candidates = Array(patterns.indices)
        guard candidates.count > Self.nearMissCandidateLimit else { return candidates }
        let scores = patterns.map { $0.cheapDistance(context) }
        candidates.sort { scores[$0] != scores[$1] ? scores[$0] < scores[$1] : precedes($0, $1) }
        candidates.removeLast(candidates.count - Self.nearMissCandidateLimit)
        return candidates
    }

    /// Whether stub `a` comes before stub `b` in winner order: a lower priority, or the same and added later.
    @inline(__always)
    private func precedes(_ a: Int, _ b: Int) -> Bool {
        let p = mappings[a].priority, q = mappings[b].priority
        return p != q ? p < q : a > b
    }

    /// Why some stubs can never match (regular expressions, templates or JSONPaths that do not compile),
    /// by mapping index.
    public var compileErrors: [(index: Int, errors: [String])] {
        patterns.enumerated().compactMap { i, p in
            let errors = p.compileErrors
            return errors.isEmpty ? nil : (i, errors)
        }
    }
}

/// The stub chosen for a request.
public struct RouteMatch: Sendable, Hashable {
    /// The stub: an element of the route table's stubs, which are shared rather than copied (a copy
    /// retains every field of the stub, on every request).
    public var mapping: StubMapping {
        get { stubs[stubIndex] }
        set { stubs = [newValue]; stubIndex = 0 }
    }
    /// The stub's position in the table's insertion order.
    public var index: Int
    /// The decoded `{name}` segments of a `urlPathTemplate`; empty otherwise.
    public var pathParameters: [String: String]
    /// Holds ``mapping`` at `stubIndex`: the table's stubs, or the one stub given to ``init(mapping:index:pathParameters:)``.
    private var stubs: [StubMapping]
    private var stubIndex: Int

    public init(mapping: StubMapping, index: Int, pathParameters: [String: String] = [:]) {
        stubs = [mapping]
        stubIndex = 0
        self.index = index
        self.pathParameters = pathParameters
    }

    /// The stub `mappings[index]`, without copying it.
    init(in mappings: [StubMapping], at index: Int, pathParameters: [String: String]) {
        stubs = mappings
        stubIndex = index
        self.index = index
        self.pathParameters = pathParameters
    }

    /// The stub's id, read in place (``mapping`` returns a copy of the whole stub).
    var mappingID: String {
        stubs.withUnsafeBufferPointer { $0[stubIndex].id }
    }

    /// Reads the stub in place (``mapping`` returns a copy of the whole stub).
    package func withMapping<Result>(_ read: (StubMapping) -> Result) -> Result {
        stubs.withUnsafeBufferPointer { read($0[stubIndex]) }
    }

    public static func == (a: RouteMatch, b: RouteMatch) -> Bool {
        a.index == b.index && a.pathParameters == b.pathParameters && a.mapping == b.mapping
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mapping)
        hasher.combine(index)
        hasher.combine(pathParameters)
    }
}

/// A stub that did not match a request, and how far it was.
public struct NearMiss: Sendable, Hashable {
    public var mapping: StubMapping
    /// The stub's position in the table's insertion order.
    public var index: Int
    public var result: MatchResult
    /// Why the stub does not answer although the request matches it (``result`` has no differences): its
    /// scenario is in another state, its use limit is reached, or its sequence has finished. `nil` otherwise.
    public var notAnswering: String?

    public init(mapping: StubMapping, index: Int, result: MatchResult) {
        self.mapping = mapping
        self.index = index
        self.result = result
    }
}

/// How a set of stubs differs from the one before it, when the store knows: what lets a new route table
/// and snapshot reuse the previous one's parts by position, without looking stubs up by id or comparing them.
package enum StubEdit: Sendable, Equatable {
    /// Stubs appended after all the previous ones.
    case appended
    /// The previous stubs at these positions (ascending, distinct) removed; the others keep their order.
    case removed([Int])
    /// The previous stubs at these positions (ascending, distinct) replaced in place.
    case replaced([Int])

    /// Whether `count` stubs can follow `previous` stubs by this edit: a check, so that a wrong edit makes a
    /// full build rather than a table that answers for stubs it does not hold.
    package func fits(previous: Int, count: Int) -> Bool {
        switch self {
        case .appended: return count >= previous
        case let .removed(positions):
            return Self.valid(positions, below: previous) && count == previous - positions.count
        case let .replaced(positions): return Self.valid(positions, below: previous) && count == previous
        }
    }

    private static func valid(_ positions: [Int], below count: Int) -> Bool {
        positions.indices.allSatisfy { i in
            positions[i] >= 0 && positions[i] < count && (i == 0 || positions[i - 1] < positions[i])
        }
    }
}

/// Where the stubs a ``RouteIndex`` holds are in the current table. Indexes hold positions: the mapping
/// indexes of the last full build, then one more per stub appended. A stub removed since leaves a gap,
/// and one replaced since is only in the table's side index of replacements: the indexes built before
/// are shared as they are, and a candidate's position becomes a mapping index only once its gate passed.
struct RouteFrame: Sendable {
    /// Positions of removed stubs, ascending.
    private(set) var removed: [Int] = []
    /// Positions of replaced stubs (not removed since), ascending: the indexes before the replacement
    /// hold their old version.
    private(set) var replaced: [Int] = []
    /// The positions handed out: the stub count plus ``removed``'s.
    private(set) var count: Int

    /// A frame where every position is its mapping index.
    init(count: Int) {
        self.count = count
    }

    /// Whether every position is its mapping index: no stub was removed or replaced since the full build.
    var isIdentity: Bool { removed.isEmpty && replaced.isEmpty }

    /// The mapping index of the stub at `position`, or nil when it was removed or, when `skippingReplaced`,
    /// replaced (an index built before the replacement holds its old version).
    @inline(__always)
    func index(of position: Int, skippingReplaced: Bool) -> Int? {
        if skippingReplaced, !replaced.isEmpty, replaced.sortedContains(position) { return nil }
        if removed.isEmpty { return position }
        let before = removed.countBelow(position)
        if before < removed.count, removed[before] == position { return nil }
        return position - before
    }

    /// The position of the stub at mapping `index`: the index-th position not removed.
    func position(of index: Int) -> Int {
        var position = index
        for gap in removed {
            guard gap <= position else { break }
            position += 1
        }
        return position
    }

    /// Hands out positions for `count` stubs appended.
    mutating func append(_ count: Int) {
        self.count += count
    }

    /// Marks the stubs at mapping indexes `indexes` (ascending) removed.
    mutating func remove(indexes: [Int]) {
        let positions = indexes.map(position(of:))
        removed = removed.merging(positions)
        replaced.removeAll { positions.sortedContains($0) }
    }

    /// Marks the stubs at mapping indexes `indexes` (ascending) replaced; returns their positions.
    @discardableResult
    mutating func replace(indexes: [Int]) -> [Int] {
        let positions = indexes.map(position(of:))
        replaced = replaced.merging(positions.filter { !replaced.sortedContains($0) })
        return positions
    }
}
