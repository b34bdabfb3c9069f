import StubModel

/// A ``MultipartPattern`` compiled once. A part matches when all its header matchers, body matchers and
/// file name do; the pattern matches when one part (`ANY`) or every part (`ALL`) does, as WireMock's
/// `MultipartValuePattern`. A request with no parts, or not multipart, matches no pattern.
final class CompiledMultipartPattern: Sendable {
    let source: MultipartPattern
    private let headers: [(name: String, matcher: CompiledMultiValueMatcher)]
    private let body: [CompiledStringMatcher]

    /// - Parameter compiled: the operands the loader compiled, taken instead of compiling them again.
    init(_ source: MultipartPattern, reusing compiled: CompiledMatchers? = nil) {
        self.source = source
        headers = source.headers.map { ($0.name, CompiledMultiValueMatcher($0.matcher, reusing: compiled)) }
        body = source.bodyPatterns.map { CompiledStringMatcher($0, reusing: compiled) }
    }

    var compileError: String? {
        headers.lazy.compactMap(\.matcher.compileError).first ?? body.lazy.compactMap(\.compileError).first
    }

    /// Whether `parts` (`nil`: the request is not multipart) satisfy the pattern.
    func isSatisfied(by parts: [MultipartBody.Part]?, jsonByteLimit: Int) -> Bool {
        guard let parts, !parts.isEmpty else { return false }
        switch source.matchingType {
        case .any: return parts.contains { matches($0, jsonByteLimit: jsonByteLimit) }
        case .all: return parts.allSatisfy { matches($0, jsonByteLimit: jsonByteLimit) }
        }
    }

    private func matches(_ part: MultipartBody.Part, jsonByteLimit: Int) -> Bool {
        if let fileName = source.fileName, part.fileName != fileName { return false }
        for (name, matcher) in headers where !matcher.isSatisfied(by: part.values(of: name)) { return false }
        guard !body.isEmpty else { return true }
        let subject = MatchSubject(body: Array(part.body), jsonByteLimit: jsonByteLimit)
        return body.allSatisfy { $0.isSatisfied(by: subject) }
    }

    /// What a near-miss report shows as expected: `ANY part with header "Content-Disposition" contains …`.
    var expectedDescription: String {
        var conditions: [String] = []
        if let fileName = source.fileName { conditions.append("file name " + Quoting.quote(fileName)) }
        for (name, matcher) in headers { conditions.append("header \"\(name)\" \(matcher.source.description)") }
        for matcher in source.bodyPatterns { conditions.append("body \(matcher.description)") }
        let scope = source.matchingType == .any ? "a part" : "every part"
        return conditions.isEmpty
            ? "a multipart body with at least one part"
            : scope + " with " + conditions.joined(separator: " and ")
    }
}
