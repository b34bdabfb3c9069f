import StubMatching

/// Finds the operation of a request: by method, number of segments and first segment, then by path template
/// (StubMatching's ``PathTemplate``, as `urlPathTemplate` stubs match), the more literal templates first.
struct OpenAPIRouter: Sendable {
    private struct Candidate: Sendable {
        let index: Int
        let template: PathTemplate
    }

    private struct Key: Hashable, Sendable {
        let method: String
        let slashes: Int
        let first: String?
    }

    private let candidates: [Key: [Candidate]]

    init(_ operations: [OpenAPIOperation]) {
        var candidates: [Key: [Candidate]] = [:]
        for (index, operation) in operations.enumerated() {
            let template = PathTemplate(operation.path)
            let key = Key(method: operation.method, slashes: template.slashCount, first: template.firstLiteralSegment)
            candidates[key, default: []].append(Candidate(index: index, template: template))
        }
        for key in candidates.keys {
            candidates[key]?.sort { $0.template.literalSegmentCount > $1.template.literalSegmentCount }
        }
        self.candidates = candidates
    }

    /// The index of the operation for `method` on `path` (raw, without the query), with the decoded path
    /// parameters.
    func route(method: String, path: String) -> (index: Int, parameters: [String: String])? {
        let slashes = path.utf8.count { $0 == UInt8(ascii: "/") }
        let first = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true).first.map(String.init)
        var best: (index: Int, parameters: [String: String], literal: Int)?
        for key in [
            Key(method: method, slashes: slashes, first: first), Key(method: method, slashes: slashes, first: nil)
        ] {
            for candidate in candidates[key] ?? [] {
                let literal = candidate.template.literalSegmentCount
                if let best, best.literal > literal || (best.literal == literal && best.index < candidate.index) {
                    break
                }
                if let parameters = candidate.template.parameters(in: path) {
                    best = (candidate.index, parameters, literal)
                    break
                }
            }
        }
        return best.map { ($0.index, $0.parameters) }
    }

    /// Every method the document defines for `path` (raw), for the report of an undefined request.
    func methods(for path: String) -> [String] {
        let slashes = path.utf8.count { $0 == UInt8(ascii: "/") }
        var found: Set<String> = []
        for (key, list) in candidates where key.slashes == slashes && !found.contains(key.method) {
            if list.contains(where: { $0.template.parameters(in: path) != nil }) { found.insert(key.method) }
        }
        return found.sorted()
    }
}

/// Media type names.
enum OpenAPIMediaTypes {
    /// `application/json` of `application/json; charset=utf-8`, lower case.
    static func base(_ type: String) -> String {
        let head = type.split(separator: ";", maxSplits: 1).first ?? ""
        return String(head.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            .lowercased()
    }

    /// Whether the document's `pattern` (`application/json`, `application/*`, `*/*`) covers `type`.
    static func covers(_ pattern: String, _ type: String) -> Bool {
        let pattern = base(pattern), type = base(type)
        if pattern == "*/*" || pattern == type { return true }
        if pattern.hasSuffix("/*") { return type.hasPrefix(pattern.dropLast()) }
        return false
    }
}
