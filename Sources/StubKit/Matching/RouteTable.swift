import StubHTTP

/// An immutable table of stubs that finds the one answering a request, built once per set of stubs.
///
/// The winner is the matching stub with the lowest `priority`; among equal priorities, the most
/// recently added (highest index) wins, as in WireMock. Stubs whose URL names a single path (`url`,
/// `urlPath`, a template without `{}`) are indexed by method and raw path; patterns and templates with a
/// literal first segment (`/users/{id}`, `^/users/.*`) by method and that segment. A request evaluates, in
/// winner order, only the stubs of its path bucket, its first-segment bucket, and the remaining ones
/// (no URL, or a pattern without a literal first segment). Each of those first meets its ``RouteGate``,
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
    /// Mapping indexes in winner order: `ranked[rank]` is a mapping index.
    private let ranked: [Int]
    /// The candidates' byte-level checks in winner order: `gates[rank]` is for `patterns[ranked[rank]]`.
    private let gates: [RouteGate]
    /// The literal bytes the gates compare.
    private let gateBytes: [UInt8]
    /// Stubs with one literal path, by raw path.
    private let literal: [String: Bucket]
    /// Patterns and templates with a known first segment, by that segment.
    private let bySegment: [String: Bucket]
    /// The other stubs (no URL, or a pattern without a literal first segment).
    private let other: Bucket
    /// The largest request body parsed as JSON for `equalToJson` and `matchesJsonPath`; those matchers
    /// do not match a larger body, and its near-miss report says why. Default 4 MiB.
    public var jsonBodyLimit = MatchSubject.defaultJSONByteLimit

    /// The ranks (ascending) of the stubs of one index entry, by method. Each method's list already
    /// includes the stubs accepting any method, so a request walks at most three lists. Once sealed,
    /// every list ends with `Int.max`, so the merge needs no end checks.
    private struct Bucket: Sendable {
        /// A sealed list of no stubs.
        static let none = [Int.max]

        var byMethod: [String: [Int]] = [:]
        /// Stubs accepting any method: the list for methods no stub of the entry names.
        var anyMethod: [Int] = []

        func ranks(for method: String) -> [Int] {
            byMethod.isEmpty ? anyMethod : byMethod[method] ?? anyMethod
        }

        mutating func add(_ rank: Int, method: String?) {
            if let method { byMethod[method, default: []].append(rank) } else { anyMethod.append(rank) }
        }

        /// Merges `anyMethod` into every method's list, keeping ranks ascending, and ends every list with
        /// `Int.max`.
        mutating func seal() {
            for (method, ranks) in byMethod { byMethod[method] = Self.merge(ranks, anyMethod) + [.max] }
            anyMethod.append(.max)
        }

        static func merge(_ a: [Int], _ b: [Int]) -> [Int] {
            var result: [Int] = []
            result.reserveCapacity(a.count + b.count)
            var i = 0, j = 0
            while i < a.count || j < b.count {
                if j == b.count || (i < a.count && a[i] < b[j]) { result.append(a[i]); i += 1 } else { result.append(b[j]); j += 1 }
            }
            return result
        }
    }

    /// Compiles every stub's pattern and indexes them. `mappings` are in insertion order (later = more
    /// recent).
    public init(_ mappings: [StubMapping]) {
        self.init(mappings, regexWarnings: nil)
    }

    /// - Parameter regexWarnings: where to warn that a URL pattern's evaluation ran out of budget
    ///   (``RegexBudget``), with a key (stub id and pattern) to say it once; `nil` for no warnings.
    /// - Parameter previous: the table this one replaces: the compiled patterns of stubs whose request
    ///   pattern and name did not change are reused, so adding one stub compiles one pattern.
    init(_ mappings: [StubMapping], regexWarnings: (@Sendable (_ key: String, _ line: String) -> Void)?,
         previous: RouteTable? = nil) {
        self.mappings = mappings
        var reusable: [String: Int] = [:]
        if let previous {
            reusable.reserveCapacity(previous.mappings.count)
            for (index, mapping) in previous.mappings.enumerated() { reusable[mapping.id] = index }
        }
        let patterns = mappings.map { mapping in
            if let previous, let old = reusable[mapping.id], previous.mappings[old].request == mapping.request,
               previous.mappings[old].displayName == mapping.displayName {
                return previous.patterns[old]
            }
            return CompiledRequestPattern(mapping.request,
                                          owner: regexWarnings.map { RegexOwner(stubID: mapping.id, stubName: mapping.displayName, report: $0) })
        }
        self.patterns = patterns
        let ranked = mappings.indices.sorted { a, b in
            mappings[a].priority != mappings[b].priority ? mappings[a].priority < mappings[b].priority : a > b
        }
        self.ranked = ranked
        var literal: [String: Bucket] = [:]
        var bySegment: [String: Bucket] = [:]
        var other = Bucket()
        var gates: [RouteGate] = [], gateBytes: [UInt8] = []
        gates.reserveCapacity(ranked.count)
        for (rank, index) in ranked.enumerated() {
            var method: String?
            if case let .exactly(m) = mappings[index].request.method { method = m }
            let literalPath = patterns[index].url?.literalPath
            gates.append(RouteGate(patterns[index], pathIndexed: literalPath != nil, pool: &gateBytes))
            if let path = literalPath {
                literal[path, default: Bucket()].add(rank, method: method)
            } else if let segment = patterns[index].url?.firstSegment {
                bySegment[segment, default: Bucket()].add(rank, method: method)
            } else {
                other.add(rank, method: method)
            }
        }
        for key in literal.keys { literal[key]?.seal() }
        for key in bySegment.keys { bySegment[key]?.seal() }
        other.seal()
        self.literal = literal
        self.bySegment = bySegment
        self.other = other
        self.gates = gates
        self.gateBytes = gateBytes
    }

    /// The number of stubs.
    public var count: Int { mappings.count }

    /// The stub that answers `request`, or `nil` if none matches.
    public func match(_ request: HTTPRequest) -> RouteMatch? {
        match(request, accepting: { _ in true })
    }

    /// The best stub that matches `request` and that `accepting` (given the mapping index) lets answer:
    /// how stateful stubs (scenario states, use limits) are skipped.
    public func match(_ request: HTTPRequest, accepting: (Int) -> Bool) -> RouteMatch? {
        match(context(for: request), accepting: accepting)
    }

    /// What matching and near-miss reports read of `request`, each part computed (the body parsed) at
    /// most once: pass it to ``match(_:accepting:)`` and ``nearMisses(for:limit:)`` alike.
    func context(for request: HTTPRequest) -> RequestContext {
        RequestContext(request, jsonByteLimit: jsonBodyLimit)
    }

    /// ``match(_:accepting:)`` on a request's context.
    func match(_ context: RequestContext, accepting: (Int) -> Bool = { _ in true }) -> RouteMatch? {
        let request = context.request
        let method = request.method.rawValue
        // Every candidate of these lists has the request's method (or accepts any).
        let a = literal[context.rawPath]?.ranks(for: method) ?? Bucket.none
        let b = bySegment.isEmpty ? Bucket.none : bySegment[Self.firstSegment(of: context.rawPath)]?.ranks(for: method) ?? Bucket.none
        let c = other.ranks(for: method)
        var path = context.rawPath, url = context.url
        let found = path.withUTF8 { path in
            url.withUTF8 { url in
                gates.withUnsafeBufferPointer { gates in
                    gateBytes.withUnsafeBufferPointer { pool in
                        a.withUnsafeBufferPointer { a in
                            b.withUnsafeBufferPointer { b in
                                c.withUnsafeBufferPointer { c in
                                    var probe = RouteProbe(context, path: path, url: url)
                                    return firstMatch(a, b, c, context, &probe, gates, pool, accepting)
                                }
                            }
                        }
                    }
                }
            }
        }
        guard let rank = found else { return nil }
        let index = ranked[rank]
        return RouteMatch(mapping: mappings[index], index: index, pathParameters: patterns[index].pathParameters(context))
    }

    /// Merges the three sealed rank lists, trying candidates best rank first: the gate, then if needed the
    /// pattern. The rank of the first match.
    private func firstMatch(_ a: UnsafeBufferPointer<Int>, _ b: UnsafeBufferPointer<Int>, _ c: UnsafeBufferPointer<Int>,
                            _ context: RequestContext, _ probe: inout RouteProbe,
                            _ gates: UnsafeBufferPointer<RouteGate>, _ pool: UnsafeBufferPointer<UInt8>,
                            _ accepting: (Int) -> Bool) -> Int? {
        // Each list ends with Int.max, which is never passed: the merge stops when all three heads are at it.
        var i = 0, j = 0, k = 0
        var x = a[0], y = b[0], z = c[0]
        while true {
            let rank: Int
            if x <= y && x <= z {
                guard x != .max else { return nil }
                rank = x; i &+= 1; x = a[i]
            } else if y <= z {
                rank = y; j &+= 1; y = b[j]
            } else {
                rank = z; k &+= 1; z = c[k]
            }
            if gates[rank].rejectsQuickly(&probe) { continue }
            switch gates[rank].verdict(probe, pool) {
            case .reject: continue
            case .accept: if accepting(ranked[rank]) { return rank }
            case let .ask(urlChecked):
                if patterns[ranked[rank]].quickMatch(context, urlChecked: urlChecked), accepting(ranked[rank]) { return rank }
            }
        }
    }

    /// `users` for `/users/1`, `` for `/`. Split on bytes for ASCII paths (every target the server
    /// accepts), else by Characters, as ``CompiledURLMatcher/firstSegment`` reads stubs.
    private static func firstSegment(of path: String) -> String {
        let utf8 = path.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            let rest = path.utf8.first == UInt8(ascii: "/") ? path.dropFirst() : Substring(path)
            return String(rest[..<(rest.firstIndex(of: "/") ?? rest.endIndex)])
        }
        var start = utf8.startIndex
        if utf8.first == UInt8(ascii: "/") { start = utf8.index(after: start) }
        let end = utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
        return String(path[start..<end])
    }

    /// The stubs closest to `request`, nearest first, sorted by ``MatchResult/distance``, ties in winner
    /// order. Empty when there are no stubs.
    ///
    /// The work is bounded whatever the stub count: every stub gets a cheap score (method, and the URL's
    /// common prefix and suffix instead of an edit distance), and only the ``nearMissCandidateLimit``
    /// best-scored are compared in full.
    public func nearMisses(for request: HTTPRequest, limit: Int = 3) -> [NearMiss] {
        nearMisses(for: context(for: request), limit: limit)
    }

    /// How many stubs, at most, a near-miss report compares in full: 32.
    public static let nearMissCandidateLimit = 32

    /// ``nearMisses(for:limit:)`` on a request's context (whose body was parsed when matching).
    func nearMisses(for context: RequestContext, limit: Int = 3) -> [NearMiss] {
        guard limit > 0 else { return [] }
        let candidates = nearMissCandidates(for: context)
        var scored: [(rank: Int, result: MatchResult)] = []
        scored.reserveCapacity(candidates.count)
        for rank in candidates {
            scored.append((rank, patterns[ranked[rank]].evaluate(context)))
        }
        scored.sort { $0.result.distance != $1.result.distance ? $0.result.distance < $1.result.distance : $0.rank < $1.rank }
        // Only the stubs shown are explained field by field.
        return scored.prefix(limit).map { scored in
            let index = ranked[scored.rank]
            return NearMiss(mapping: mappings[index], index: index, result: patterns[index].evaluate(context, explaining: true))
        }
    }

    /// The ranks of the stubs a near-miss report compares in full: all of them up to
    /// ``nearMissCandidateLimit``, else that many with the best ``CompiledRequestPattern/cheapDistance(_:)``.
    func nearMissCandidates(for context: RequestContext) -> [Int] {
        var candidates = Array(ranked.indices)
        guard candidates.count > Self.nearMissCandidateLimit else { return candidates }
        let scores = ranked.map { patterns[$0].cheapDistance(context) }
        candidates.sort { scores[$0] != scores[$1] ? scores[$0] < scores[$1] : $0 < $1 }
        candidates.removeLast(candidates.count - Self.nearMissCandidateLimit)
        return candidates
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
