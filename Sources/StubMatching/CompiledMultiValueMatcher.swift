import StubHTTP
import StubModel

/// A ``MultiValueMatcher`` compiled once: matches the list of values a request carries for one name.
/// A class, so trying it borrows it instead of copying it.
final class CompiledMultiValueMatcher: Sendable {
    let source: MultiValueMatcher
    private let kind: Kind

    private enum Kind: Sendable {
        case single(CompiledStringMatcher)
        case hasExactly([CompiledStringMatcher])
        case includes([CompiledStringMatcher])
    }

    /// - Parameter compiled: the operands the loader compiled, taken instead of compiling them again.
    init(_ source: MultiValueMatcher, reusing compiled: CompiledMatchers? = nil) {
        self.source = source
        func compile(_ matcher: StringMatcher) -> CompiledStringMatcher {
            CompiledStringMatcher(matcher, reusing: compiled)
        }
        switch source {
        case let .single(m): kind = .single(compile(m))
        case let .hasExactly(ms): kind = .hasExactly(ms.map(compile))
        case let .includes(ms): kind = .includes(ms.map(compile))
        }
    }

    var compileError: String? {
        switch kind {
        case let .single(m): m.compileError
        case let .hasExactly(ms), let .includes(ms): ms.lazy.compactMap(\.compileError).first
        }
    }

    /// 0 when `values` (empty = absent) satisfy the matcher, else a distance in (0, 1].
    ///
    /// The single form passes when ANY value passes (verified against WireMock 2.35.1 with two `X-H`
    /// fields); `absent` passes only when there is no value at all (an empty value is present).
    func distance(_ values: [String]) -> Double {
        switch kind {
        case let .single(m):
            if m.isAbsent { return values.isEmpty ? 0 : 1 }
            if values.isEmpty { return m.distance(MatchSubject(nil)) }
            var best = 1.0
            for value in values {
                best = min(best, m.distance(MatchSubject(value)))
                if best == 0 { break }
            }
            return best
        case let .hasExactly(ms):
            let subjects = values.map(MatchSubject.init)
            if ms.count == values.count,
                JSONEquivalence.unorderedPairing(ms.count, subjects.count, { ms[$0].distance(subjects[$1]) == 0 })
            {
                return 0
            }
            let satisfied = ms.filter { m in subjects.contains { m.distance($0) == 0 } }.count
            let unmet = 1 - Double(satisfied) / Double(max(ms.count, values.count, 1))
            return max(0.1, unmet)
        case let .includes(ms):
            guard !ms.isEmpty else { return 0 }
            let subjects = values.map(MatchSubject.init)
            let satisfied = ms.filter { m in subjects.contains { m.distance($0) == 0 } }.count
            return 1 - Double(satisfied) / Double(ms.count)
        }
    }

    /// Whether `values` (empty = absent) satisfy the matcher: `distance(values) == 0`, computing no
    /// distance for the single form.
    func isSatisfied(by values: [String]) -> Bool {
        guard case let .single(m) = kind else { return distance(values) == 0 }
        if values.isEmpty { return m.isSatisfied(byText: nil) }
        if m.isAbsent { return false }
        for value in values where m.isSatisfied(byText: value) { return true }
        return false
    }

    /// `isSatisfied(by: headers[name])` without collecting the values.
    func isSatisfied(byHeader name: String, in headers: StubHTTPHeaders) -> Bool {
        guard case let .single(m) = kind else { return distance(headers[name]) == 0 }
        var present = false
        for field in headers where StubHTTPHeaders.equalsIgnoringCase(field.name, name) {
            if m.isSatisfied(byText: field.value) { return true }
            present = true
        }
        return present ? false : m.isSatisfied(byText: nil)
    }
}
