import StubHTTP

/// A `urlPathTemplate` (`/users/{login}/repos/{repo}`) compiled into path segments and matched on the
/// raw path's UTF-8 bytes, without a regular expression.
///
/// Each `{name}` takes one or more characters other than `/`; the rest of the template is literal text,
/// compared byte for byte with the raw (still percent-encoded) path. Parameter values are percent-decoded.
/// This is exactly what the regular expression `\A(?:lit([^/]+)lit…)\z` used before did: a parameter can
/// never hold a `/`, so the path's slashes line up with the template's, and each segment is matched on its
/// own. Within a segment with several parameters (`{a}-{b}`) the earlier parameter takes the longest text
/// that lets the rest match, as the regex's greedy groups did, and values always end on character
/// boundaries.
///
/// ```swift
/// let template = PathTemplate("/users/{login}")
/// template.parameters(in: "/users/octo%2Dcat")   // ["login": "octo-cat"]
/// template.parameters(in: "/users/")             // nil: `{login}` needs at least one character
/// ```
package struct PathTemplate: Sendable, Hashable {
    /// One piece of a segment.
    enum Part: Sendable, Hashable {
        case literal([UInt8])
        /// The parameter's position in ``names``.
        case parameter(Int)
    }

    /// A `/`-separated segment of the template.
    enum Segment: Sendable, Hashable {
        case literal([UInt8])
        /// `{name}` alone: any non-empty segment.
        case parameter(Int)
        /// Literal text and parameters mixed (`{a}.json`, `v{major}.{minor}`).
        case mixed([Part])
    }

    let segments: [Segment]
    /// Parameter names in template order (a name may repeat; the last value wins).
    package let names: [String]
    /// How many `/` a matching path has: one less than ``segments``.
    package var slashCount: Int { segments.count - 1 }

    /// How many segments are wholly literal (an OpenAPI router tries `/pets/mine` before `/pets/{id}`).
    package var literalSegmentCount: Int { segments.count { if case .literal = $0 { true } else { false } } }

    /// The first segment after the leading `/` when it is wholly literal (`users` of `/users/{name}`).
    package var firstLiteralSegment: String? {
        guard segments.count > 1, case .literal(let bytes) = segments[1] else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    package init(_ template: String) {
        // The same reading as the former regex compiler: `{` up to the next `}` is a parameter; a `{` with
        // no `}` after it is literal.
        var parts: [Part] = [], names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            parts.append(.literal(Array(rest[..<open].utf8)))
            names.append(String(rest[rest.index(after: open)..<close]))
            parts.append(.parameter(names.count - 1))
            rest = rest[rest.index(after: close)...]
        }
        parts.append(.literal(Array(rest.utf8)))
        self.names = names
        segments = Self.split(parts)
    }

    /// Cuts the parts at every `/` of their literal text; parameters never hold one.
    private static func split(_ parts: [Part]) -> [Segment] {
        var segments: [Segment] = [], current: [Part] = []
        func finish() {
            let pieces = current.filter { if case let .literal(bytes) = $0 { !bytes.isEmpty } else { true } }
            switch pieces.count {
            case 0: segments.append(.literal([]))
            case 1:
                switch pieces[0] {
                case let .literal(bytes): segments.append(.literal(bytes))
                case let .parameter(index): segments.append(.parameter(index))
                }
            default: segments.append(.mixed(pieces))
            }
            current = []
        }
        for part in parts {
            guard case let .literal(bytes) = part else { current.append(part); continue }
            var start = 0
            while let slash = bytes[start...].firstIndex(of: UInt8(ascii: "/")) {
                current.append(.literal(Array(bytes[start..<slash])))
                finish()
                start = slash + 1
            }
            current.append(.literal(Array(bytes[start...])))
        }
        finish()
        return segments
    }

    /// Whether `path` (raw) matches, computing no parameters.
    func matches(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            var captures: [Range<Int>] = []
            return match(bytes, captures: &captures, capturing: false)
        }
    }

    /// The decoded parameters if `path` (raw) matches, else `nil`.
    package func parameters(in path: String) -> [String: String]? {
        var path = path
        return path.withUTF8 { bytes -> [String: String]? in
            var captures: [Range<Int>] = []
            guard match(bytes, captures: &captures, capturing: true) else { return nil }
            var parameters: [String: String] = [:]
            for (name, range) in zip(names, captures) {
                let raw = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                parameters[name] = PercentDecoding.decode(raw, plusAsSpace: false)
            }
            return parameters
        }
    }

    /// Matches segment by segment; `captures` receives each parameter's byte range, in template order.
    func match(_ bytes: UnsafeBufferPointer<UInt8>, captures: inout [Range<Int>], capturing: Bool) -> Bool {
        var start = 0
        for (i, segment) in segments.enumerated() {
            guard start <= bytes.count else { return false }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
            // Every segment but the last ends at a `/`; the last at the end of the path.
            if (i == segments.count - 1) != (end == bytes.count) { return false }
            switch segment {
            case let .literal(literal):
                guard Self.equal(bytes, start, end, literal) else { return false }
            case .parameter:
                guard end > start else { return false }
                if capturing { captures.append(start..<end) }
            case let .mixed(parts):
                guard Self.match(parts[...], bytes, start, end, &captures) else { return false }
            }
            start = end + 1
        }
        return true
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ literal: [UInt8]) -> Bool
    {
        guard end - start == literal.count else { return false }
        for (offset, byte) in literal.enumerated() where bytes[start + offset] != byte { return false }
        return true
    }

    /// Backtracking like the regex's greedy `([^/]+)`: the first parameter tries its longest value first.
    /// Values end only on character boundaries (never before a UTF-8 continuation byte).
    private static func match(
        _ parts: ArraySlice<Part>, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
        _ captures: inout [Range<Int>]
    ) -> Bool {
        guard let first = parts.first else { return start == end }
        switch first {
        case let .literal(literal):
            guard end - start >= literal.count, equal(bytes, start, start + literal.count, literal) else {
                return false
            }
            return match(parts.dropFirst(), bytes, start + literal.count, end, &captures)
        case .parameter:
            var stop = end
            while stop > start {
                if stop == end || bytes[stop] & 0xC0 != 0x80 {
                    captures.append(start..<stop)
                    if match(parts.dropFirst(), bytes, stop, end, &captures) { return true }
                    captures.removeLast()
                }
                stop -= 1
            }
            return false
        }
    }
}
