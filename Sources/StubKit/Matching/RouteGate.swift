/// What a ``RouteTable`` candidate needs that a few byte compares can check, before its pattern is asked:
/// its URL's literal text, regex prefilter or slash count, and the header fields, query parameters and
/// body it cannot do without. Plain values in one flat array, so most candidates that cannot match are
/// turned away without touching their pattern object.
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
    /// Whether the `equal` literal is ASCII: then, with an ASCII subject, unequal bytes mean unequal
    /// strings. (Swift compares strings by canonical equivalence: `K` equals the Kelvin sign.)
    var literalIsASCII = true
    var literal = Span(), suffix = Span(), infix = Span()
    var slashes = 0
    /// Bits of the header names (case-folded) and query names the request must carry; see ``nameBits``.
    var headerBits: UInt64 = 0, queryBits: UInt64 = 0
    var needsBody = false
    /// Whether the pattern matches more than method and URL.
    var hasFieldMatchers = false

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
            literalIsASCII = text.utf8.allSatisfy { $0 < 0x80 }
        case let .affixes(prefilter, onURL):
            urlCheck = .affixes
            self.onURL = onURL
            settlesURL = false
            literal = span(prefilter.prefix)
            suffix = span(prefilter.suffix)
            infix = span(prefilter.infix)
        case let .slashes(count):
            urlCheck = .slashes
            settlesURL = false
            slashes = count
        }
        headerBits = pattern.requiredHeaders.reduce(0) { $0 | Self.nameBits($1.utf8, foldingCase: true) }
        queryBits = pattern.requiredQuery.reduce(0) { $0 | Self.nameBits($1.utf8, foldingCase: false) }
        needsBody = pattern.requiresBody
        hasFieldMatchers = pattern.hasFieldMatchers
    }

    @inline(__always)
    func verdict(_ probe: inout RouteProbe, _ pool: UnsafeBufferPointer<UInt8>) -> Verdict {
        var urlChecked = settlesURL
        switch urlCheck {
        case .none: break
        case .equal:
            let subject = onURL ? probe.url : probe.path
            if subject.count != literal.count || !Self.equal(subject, 0, pool, literal) {
                guard !literalIsASCII || !(onURL ? probe.urlIsASCII : probe.pathIsASCII) else { return .reject }
                urlChecked = false
            }
        case .affixes:
            let subject = onURL ? probe.url : probe.path
            guard subject.count >= literal.count + suffix.count, subject.count >= infix.count,
                  Self.equal(subject, 0, pool, literal),
                  Self.equal(subject, subject.count - suffix.count, pool, suffix),
                  infix.count == 0 || Self.contains(subject, pool, infix)
            else { return .reject }
        case .slashes:
            guard probe.slashes == slashes else { return .reject }
        }
        if needsBody, !probe.hasBody { return .reject }
        if headerBits != 0, headerBits & ~probe.headerBits() != 0 { return .reject }
        if queryBits != 0, queryBits & ~probe.queryBits() != 0 { return .reject }
        return urlChecked && !hasFieldMatchers ? .accept : .ask(urlChecked: urlChecked)
    }

    /// Whether `subject[at...]` starts with the span's bytes (callers check the length).
    @inline(__always)
    private static func equal(_ subject: UnsafeBufferPointer<UInt8>, _ at: Int, _ pool: UnsafeBufferPointer<UInt8>, _ span: Span) -> Bool {
        if span.count == 0 { return true }
        guard at >= 0, subject.count - at >= span.count else { return false }
        var i = 0
        while i < span.count {
            if subject[at + i] != pool[span.start + i] { return false }
            i += 1
        }
        return true
    }

    private static func contains(_ subject: UnsafeBufferPointer<UInt8>, _ pool: UnsafeBufferPointer<UInt8>, _ span: Span) -> Bool {
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
    static func nameBits(_ name: some Sequence<UInt8>, foldingCase: Bool) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for var byte in name {
            if foldingCase, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte |= 0x20 }
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return 1 << (hash & 63) | 1 << ((hash >> 6) & 63)
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
    private var headers: UInt64?
    private var query: UInt64?

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

    mutating func headerBits() -> UInt64 {
        if let headers { return headers }
        var bits: UInt64 = 0
        for field in context.request.headers { bits |= RouteGate.nameBits(field.name.utf8, foldingCase: true) }
        headers = bits
        return bits
    }

    mutating func queryBits() -> UInt64 {
        if let query { return query }
        var bits: UInt64 = 0
        // The URL is the raw path when there is no query (or only a bare `?`): no parameters.
        if url.count != path.count {
            for name in context.query.keys { bits |= RouteGate.nameBits(name.utf8, foldingCase: false) }
        }
        query = bits
        return bits
    }
}
