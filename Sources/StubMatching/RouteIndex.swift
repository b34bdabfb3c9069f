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

/// What a ``RouteTable`` candidate needs that a few byte compares can check, before its pattern is asked:
/// its URL's length, literal text, regex prefilter or slash count, and the header fields, query
/// parameters and body it cannot do without. Plain values in one flat array, so most candidates that
/// cannot match are turned away inline, without a call and without touching their pattern object.
///
/// A gate never changes a result: it turns a candidate away only when its pattern would, and it answers
/// "match" by itself only when the pattern would compare nothing else (URL settled, no field matchers).
struct RouteGate: Sendable {
    enum URLCheck: UInt8, Sendable {
        /// Nothing to check: no URL matcher, or a literal path the index already compared.
        case none
        /// The subject's bytes equal ``literal``.
        case equal
        /// The subject passes the regex prefilter in ``literal`` (prefix), ``suffix`` and ``infix``.
        case affixes
        /// The raw path has ``slashes`` `/`.
        case slashes
    }

    /// The answer for one request.
    enum Verdict {
        case reject
        case accept
        /// Ask the pattern; `urlChecked` when the gate settled the URL.
        case ask(urlChecked: Bool)
    }

    /// Bytes in the table's shared pool.
    struct Span: Sendable {
        var start = 0, count = 0
    }

    var urlCheck = URLCheck.none
    /// Whether the URL check looks at path and query (`url`, `urlPattern`) rather than the raw path.
    var onURL = false
    /// Whether passing the URL check settles the URL (true for `none` and `equal`).
    var settlesURL = true
    /// The subject's length in bytes is within these bounds. For `equal`, they hold only when the literal
    /// and the subject are ASCII: Swift compares strings by canonical equivalence (`K` equals the Kelvin
    /// sign), so a non-ASCII literal has no bounds and a non-ASCII subject skips them.
    var minCount = 0, maxCount = Int.max
    /// The last byte of a prefilter's suffix, or -1: checked inline, before the out-of-line compares.
    var lastByte: Int16 = -1
    /// How many `/` the raw path has, or -1 for any.
    var slashes = -1
    /// Bits of the header names (case-folded) and query names the request must carry; see ``nameBits``.
    var headerBits: UInt64 = 0, queryBits: UInt64 = 0
    var needsBody = false
    /// Whether the pattern matches more than method and URL.
    var hasFieldMatchers = false
    var literal = Span(), suffix = Span(), infix = Span()

    /// The gate of `pattern`, whose raw path the index compared when `pathIndexed`. Literal bytes go to `pool`.
    init(_ pattern: CompiledRequestPattern, pathIndexed: Bool, pool: inout [UInt8]) {
        func span(_ bytes: some Collection<UInt8>) -> Span {
            defer { pool.append(contentsOf: bytes) }
            return Span(start: pool.count, count: bytes.count)
        }
        switch pattern.url?.precheck {
        case nil: break
        case let .equal(text, onURL):
            // A `urlPath` in its path's bucket equals the path (`==`, as the dictionary compares).
            guard !pathIndexed || onURL else { break }
            urlCheck = .equal
            self.onURL = onURL
            literal = span(text.utf8)
            if text.utf8.allSatisfy({ $0 < 0x80 }) { (minCount, maxCount) = (literal.count, literal.count) }
        case let .affixes(prefilter, onURL):
            urlCheck = .affixes
            self.onURL = onURL
            settlesURL = false
            literal = span(prefilter.prefix)
            suffix = span(prefilter.suffix)
            infix = span(prefilter.infix)
            minCount = max(literal.count + suffix.count, infix.count)
            if let last = prefilter.suffix.last { lastByte = Int16(last) }
        case let .slashes(count):
            urlCheck = .slashes
            settlesURL = false
            slashes = count
        }
        headerBits = pattern.requiredHeaders.reduce(0) { $0 | Self.nameBits($1, foldingCase: true) }
        queryBits = pattern.requiredQuery.reduce(0) { $0 | Self.nameBits($1, foldingCase: false) }
        needsBody = pattern.requiresBody
        hasFieldMatchers = pattern.hasFieldMatchers
    }

    /// Whether the request certainly fails: the subject's length, the path's slashes, a needed body, header
    /// or query name. No byte of the URL is compared here.
    @inline(__always)
    func rejectsQuickly(_ probe: inout RouteProbe) -> Bool {
        let count = onURL ? probe.url.count : probe.path.count
        if count < minCount || count > maxCount, urlCheck != .equal || (onURL ? probe.urlIsASCII : probe.pathIsASCII) {
            return true
        }
        // An affixes gate: the length check above holds, so the subject has at least the suffix's bytes.
        if lastByte >= 0, (onURL ? probe.url : probe.path)[count - 1] != UInt8(truncatingIfNeeded: lastByte) {
            return true
        }
        if slashes >= 0, slashes != probe.slashes { return true }
        if needsBody, !probe.hasBody { return true }
        if headerBits != 0, headerBits & ~probe.headerBits() != 0 { return true }
        if queryBits != 0, queryBits & ~probe.queryBits() != 0 { return true }
        return false
    }

    /// The rest of the gate, once ``rejectsQuickly(_:)`` passed: the URL's bytes.
    func verdict(_ probe: RouteProbe, _ pool: UnsafeBufferPointer<UInt8>) -> Verdict {
        var urlChecked = settlesURL
        switch urlCheck {
        case .none, .slashes: break
        case .equal:
            let subject = onURL ? probe.url : probe.path
            if subject.count != literal.count || !Self.equal(subject, 0, pool, literal) {
                // Unequal bytes are unequal strings when both are ASCII (then the bounds held).
                if minCount == maxCount, onURL ? probe.urlIsASCII : probe.pathIsASCII { return .reject }
                urlChecked = false
            }
        case .affixes:
            let subject = onURL ? probe.url : probe.path
            guard Self.equal(subject, 0, pool, literal),
                Self.equal(subject, subject.count - suffix.count, pool, suffix),
                infix.count == 0 || Self.contains(subject, pool, infix)
            else { return .reject }
        }
        return urlChecked && !hasFieldMatchers ? .accept : .ask(urlChecked: urlChecked)
    }

    /// Whether `subject[at...]` starts with the span's bytes.
    @inline(__always)
    private static func equal(
        _ subject: UnsafeBufferPointer<UInt8>, _ at: Int, _ pool: UnsafeBufferPointer<UInt8>, _ span: Span
    ) -> Bool {
        if span.count == 0 { return true }
        guard at >= 0, subject.count - at >= span.count else { return false }
        var i = 0
        while i < span.count {
            if subject[at + i] != pool[span.start + i] { return false }
            i += 1
        }
        return true
    }

    private static func contains(
        _ subject: UnsafeBufferPointer<UInt8>, _ pool: UnsafeBufferPointer<UInt8>, _ span: Span
    ) -> Bool {
        let first = pool[span.start]
        var at = 0
        while at <= subject.count - span.count {
            if subject[at] == first, equal(subject, at, pool, span) { return true }
            at += 1
        }
        return false
    }

    /// Two bits (of 64) for a name, from its FNV-1a hash; ASCII letters folded to lower case for header
    /// names, which compare ignoring case. A one-sided test (a Bloom filter): a request missing a bit
    /// certainly lacks the name; having all bits proves nothing.
    static func nameBits(_ name: String, foldingCase: Bool) -> UInt64 {
        var name = name
        return name.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for var byte in bytes {
                if foldingCase, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte |= 0x20 }
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return 1 << (hash & 63) | 1 << ((hash >> 6) & 63)
        }
    }
}

/// The request as the gates see it: raw path and URL bytes, computed once per match; header and query
/// name bits computed when a gate first needs them.
struct RouteProbe {
    let path: UnsafeBufferPointer<UInt8>
    let url: UnsafeBufferPointer<UInt8>
    let pathIsASCII: Bool
    let urlIsASCII: Bool
    /// How many `/` the raw path has.
    let slashes: Int
    let hasBody: Bool
    private let context: RequestContext
    private var headers: UInt64 = 0, headersKnown = false
    private var query: UInt64 = 0, queryKnown = false

    init(_ context: RequestContext, path: UnsafeBufferPointer<UInt8>, url: UnsafeBufferPointer<UInt8>) {
        self.context = context
        self.path = path
        self.url = url
        var slashes = 0, high: UInt8 = 0
        for byte in path {
            if byte == UInt8(ascii: "/") { slashes += 1 }
            high |= byte
        }
        self.slashes = slashes
        pathIsASCII = high < 0x80
        for byte in url.dropFirst(path.count) { high |= byte }
        urlIsASCII = high < 0x80
        hasBody = !context.request.body.isEmpty
    }

    @inline(__always)
    mutating func headerBits() -> UInt64 {
        if !headersKnown { computeHeaderBits() }
        return headers
    }

    @inline(__always)
    mutating func queryBits() -> UInt64 {
        if !queryKnown { computeQueryBits() }
        return query
    }

    @inline(never)
    private mutating func computeHeaderBits() {
        for field in context.request.headers { headers |= RouteGate.nameBits(field.name, foldingCase: true) }
        headersKnown = true
    }

    @inline(never)
    private mutating func computeQueryBits() {
        // The URL is the raw path when there is no query (or only a bare `?`): no parameters.
        if url.count != path.count {
            for name in context.query.keys { query |= RouteGate.nameBits(name, foldingCase: false) }
        }
        queryKnown = true
    }
}
