import StubHTTP
import StubModel

/// The lookup structure of a ``RouteTable`` over some of its stubs: stubs whose URL names a single
/// path indexed by method and raw path, patterns and templates with a literal first segment by method
/// and that segment, the others in one list; each candidate behind its ``RouteGate``. Immutable, and a
/// class so that the tables built after stubs are appended, removed or replaced share it.
///
/// It holds stubs by ``RouteFrame`` position, not by mapping index, so that a removal elsewhere does not
/// make it stale: the table's frame turns a position into a mapping index.
final class RouteIndex: Sendable {
    /// The positions covered (some may be missing: removed or replaced before the build).
    let range: Range<Int>
    /// Positions in winner order: `ranked[rank]` is a position.
    private let ranked: [Int]
    /// The candidates' byte-level checks in winner order: `gates[rank]` is for the stub at `ranked[rank]`.
    private let gates: [RouteGate]
    /// The literal bytes the gates compare.
    private let gateBytes: [UInt8]
    /// Stubs with one literal path, by raw path.
    private let literal: [String: Bucket]
    /// Patterns and templates with a known first segment, by that segment.
    private let bySegment: [String: Bucket]
    /// The other stubs (no URL, or a pattern without a literal first segment).
    private let other: Bucket

    /// The ranks (ascending) of the stubs of one index entry, by method. Each method's list already
    /// includes the stubs accepting any method, so a request walks at most three lists. Once sealed,
    /// every list ends with `Int.max`, so the merge needs no end checks.
    fileprivate struct Bucket: Sendable {
        /// A sealed list of no stubs.
        static let none = [Int.max]

        var byMethod: [String: [Int]] = [:]
        /// Stubs accepting any method: the list for methods no stub of the entry names.
        var anyMethod: [Int] = []
        /// Once sealed, ``byMethod`` as a list when it has at most ``fewMethods`` methods (nearly always):
        /// comparing a few short strings costs less than hashing the request's method.
        private var few: [(method: String, ranks: [Int])]?

        /// The most methods an entry looks up in a list rather than by hash.
        static let fewMethods = 8

        func ranks(for method: String) -> [Int] {
            if let few {
                for entry in few where entry.method == method { return entry.ranks }
                return anyMethod
            }
            return byMethod.isEmpty ? anyMethod : byMethod[method] ?? anyMethod
        }

        mutating func add(_ rank: Int, method: String?) {
            if let method { byMethod[method, default: []].append(rank) } else { anyMethod.append(rank) }
        }

        /// Merges `anyMethod` into every method's list, keeping ranks ascending, and ends every list with
        /// `Int.max`.
        mutating func seal() {
            for (method, ranks) in byMethod { byMethod[method] = ranks.merging(anyMethod) + [.max] }
            anyMethod.append(.max)
            few = byMethod.count <= Self.fewMethods ? byMethod.map { (method: $0.key, ranks: $0.value) } : nil
        }
    }

    /// Indexes the stubs `range` of `mappings`, compiled as `patterns` (aligned with `mappings`), each at
    /// its mapping index.
    convenience init(_ mappings: [StubMapping], _ patterns: [CompiledRequestPattern], range: Range<Int>) {
        self.init(mappings, patterns, entries: range.map { ($0, $0) }, range: range)
    }

    /// Indexes the stubs of `entries`: each a position and the mapping index of its stub in `mappings`
    /// and `patterns`, in ascending order of both.
    init(
        _ mappings: [StubMapping], _ patterns: [CompiledRequestPattern], entries: [(position: Int, index: Int)],
        range: Range<Int>
    ) {
        self.range = range
        let order = entries.indices.sorted { a, b in
            let p = mappings[entries[a].index].priority, q = mappings[entries[b].index].priority
            return p != q ? p < q : a > b
        }
        self.ranked = order.map { entries[$0].position }
        var literal: [String: Bucket] = [:]
        var bySegment: [String: Bucket] = [:]
        var other = Bucket()
        var gates: [RouteGate] = [], gateBytes: [UInt8] = []
        gates.reserveCapacity(order.count)
        for (rank, entry) in order.enumerated() {
            let index = entries[entry].index
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

    /// The mapping index of the best stub of this index that matches and that `accepting` lets answer, the
    /// positions read through `frame`; the stubs replaced since the build skipped when `skippingReplaced`.
    func firstMatch(
        _ context: RequestContext, _ patterns: [CompiledRequestPattern], _ frame: RouteFrame,
        skippingReplaced: Bool, _ accepting: (Int) -> Bool
    ) -> Int? {
        let method = context.request.method.rawValue
        // Every candidate of these lists has the request's method (or accepts any).
        let a = literal[context.rawPath]?.ranks(for: method) ?? Bucket.none
        let b =
            bySegment.isEmpty
            ? Bucket.none : bySegment[Self.firstSegment(of: context.rawPath)]?.ranks(for: method) ?? Bucket.none
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
                                    return firstMatch(
                                        a, b, c, context, &probe, gates, pool, patterns, frame,
                                        skippingReplaced, accepting)
                                }
                            }
                        }
                    }
                }
            }
        }
        return found
    }

    /// Merges the three sealed rank lists, trying candidates best rank first: the gate, then if needed the
    /// pattern. The mapping index of the first match.
    private func firstMatch(
        _ a: UnsafeBufferPointer<Int>, _ b: UnsafeBufferPointer<Int>, _ c: UnsafeBufferPointer<Int>,
        _ context: RequestContext, _ probe: inout RouteProbe,
        _ gates: UnsafeBufferPointer<RouteGate>, _ pool: UnsafeBufferPointer<UInt8>,
        _ patterns: [CompiledRequestPattern], _ frame: RouteFrame, _ skippingReplaced: Bool,
        _ accepting: (Int) -> Bool
    ) -> Int? {
        // No stub removed or replaced since the full build: every position is its mapping index, no lookup.
        let identity = frame.isIdentity
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
            let verdict = gates[rank].verdict(probe, pool)
            if case .reject = verdict { continue }
            let index: Int
            if identity {
                index = ranked[rank]
            } else {
                guard let current = frame.index(of: ranked[rank], skippingReplaced: skippingReplaced) else { continue }
                index = current
            }
            switch verdict {
            case .reject: continue
            case .accept: if accepting(index) { return index }
            case let .ask(urlChecked):
                if patterns[index].quickMatch(context, urlChecked: urlChecked), accepting(index) { return index }
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
}
