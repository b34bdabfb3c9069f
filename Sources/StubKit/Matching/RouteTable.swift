/// An immutable table of stubs that finds the one answering a request, built once per set of stubs.
///
/// The winner is the matching stub with the lowest `priority`; among equal priorities, the most
/// recently added (highest index) wins, as in WireMock. Stubs whose URL names a single path (`url`,
/// `urlPath`, a template without `{}`) are indexed by method and raw path; patterns and templates with a
/// literal first segment (`/users/{id}`, `^/users/.*`) by method and that segment. A request evaluates, in
/// winner order, only the stubs of its path bucket, its first-segment bucket, and the remaining ones
/// (no URL, or a pattern without a literal first segment).
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
    private let patterns: [CompiledRequestPattern]
    /// Mapping indexes in winner order: `ranked[rank]` is a mapping index.
    private let ranked: [Int]
    /// Ranks (ascending) of the stubs with one literal path, by method (`nil` = any) and raw path.
    private let literal: [RouteKey: [Int]]
    /// Ranks (ascending) of the patterns and templates with a known first segment, by method and segment.
    private let bySegment: [RouteKey: [Int]]
    /// Ranks (ascending) of the other stubs, by method.
    private let otherByMethod: [String: [Int]]
    /// Ranks (ascending) of the other stubs accepting any method.
    private let otherAnyMethod: [Int]

    private struct RouteKey: Hashable {
        var method: String?
        var path: String
    }

    /// Compiles every stub's pattern and indexes them. `mappings` are in insertion order (later = more
    /// recent).
    public init(_ mappings: [StubMapping]) {
        self.mappings = mappings
        patterns = mappings.map { CompiledRequestPattern($0.request) }
        ranked = mappings.indices.sorted { a, b in
            mappings[a].priority != mappings[b].priority ? mappings[a].priority < mappings[b].priority : a > b
        }
        var literal: [RouteKey: [Int]] = [:]
        var bySegment: [RouteKey: [Int]] = [:]
        var otherByMethod: [String: [Int]] = [:]
        var otherAnyMethod: [Int] = []
        for (rank, index) in ranked.enumerated() {
            var method: String?
            if case let .exactly(m) = mappings[index].request.method { method = m }
            if let path = patterns[index].url?.literalPath {
                literal[RouteKey(method: method, path: path), default: []].append(rank)
            } else if let segment = patterns[index].url?.firstSegment {
                bySegment[RouteKey(method: method, path: segment), default: []].append(rank)
            } else if let method {
                otherByMethod[method, default: []].append(rank)
            } else {
                otherAnyMethod.append(rank)
            }
        }
        self.literal = literal
        self.bySegment = bySegment
        self.otherByMethod = otherByMethod
        self.otherAnyMethod = otherAnyMethod
    }

    /// The number of stubs.
    public var count: Int { mappings.count }

    /// The stub that answers `request`, or `nil` if none matches.
    public func match(_ request: HTTPRequest) -> RouteMatch? {
        let context = RequestContext(request)
        let method = request.method.rawValue
        var lists: [[Int]] = []
        if let l = literal[RouteKey(method: method, path: context.rawPath)] { lists.append(l) }
        if let l = literal[RouteKey(method: nil, path: context.rawPath)] { lists.append(l) }
        if !bySegment.isEmpty {
            let segment = Self.firstSegment(of: context.rawPath)
            if let l = bySegment[RouteKey(method: method, path: segment)] { lists.append(l) }
            if let l = bySegment[RouteKey(method: nil, path: segment)] { lists.append(l) }
        }
        if let l = otherByMethod[method] { lists.append(l) }
        if !otherAnyMethod.isEmpty { lists.append(otherAnyMethod) }
        // Merge the (rank-sorted) candidate lists, trying candidates best rank first.
        var heads = [Int](repeating: 0, count: lists.count)
        while true {
            var best: (list: Int, rank: Int)?
            for (i, list) in lists.enumerated() where heads[i] < list.count {
                if best == nil || list[heads[i]] < best?.rank ?? .max { best = (i, list[heads[i]]) }
            }
            guard let (list, rank) = best else { return nil }
            heads[list] += 1
            let index = ranked[rank]
            if let parameters = patterns[index].quickMatch(context) {
                return RouteMatch(mapping: mappings[index], index: index, pathParameters: parameters)
            }
        }
    }

    /// `users` for `/users/1`, `` for `/`.
    private static func firstSegment(of path: String) -> String {
        let rest = path.utf8.first == UInt8(ascii: "/") ? path.dropFirst() : Substring(path)
        return String(rest[..<(rest.firstIndex(of: "/") ?? rest.endIndex)])
    }

    /// The stubs closest to `request`, nearest first: every stub is compared in full, sorted by
    /// ``MatchResult/distance``, ties in winner order. Empty when there are no stubs.
    public func nearMisses(for request: HTTPRequest, limit: Int = 3) -> [NearMiss] {
        guard limit > 0 else { return [] }
        let context = RequestContext(request)
        var scored: [(rank: Int, result: MatchResult)] = []
        scored.reserveCapacity(ranked.count)
        for (rank, index) in ranked.enumerated() {
            scored.append((rank, patterns[index].evaluate(context)))
        }
        scored.sort { $0.result.distance != $1.result.distance ? $0.result.distance < $1.result.distance : $0.rank < $1.rank }
        return scored.prefix(limit).map { NearMiss(mapping: mappings[ranked[$0.rank]], index: ranked[$0.rank], result: $0.result) }
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
    public var mapping: StubMapping
    /// The stub's position in the table's insertion order.
    public var index: Int
    /// The decoded `{name}` segments of a `urlPathTemplate`; empty otherwise.
    public var pathParameters: [String: String]

    public init(mapping: StubMapping, index: Int, pathParameters: [String: String] = [:]) {
        self.mapping = mapping
        self.index = index
        self.pathParameters = pathParameters
    }
}

/// A stub that did not match a request, and how far it was.
public struct NearMiss: Sendable, Hashable {
    public var mapping: StubMapping
    /// The stub's position in the table's insertion order.
    public var index: Int
    public var result: MatchResult

    public init(mapping: StubMapping, index: Int, result: MatchResult) {
        self.mapping = mapping
        self.index = index
        self.result = result
    }
}
