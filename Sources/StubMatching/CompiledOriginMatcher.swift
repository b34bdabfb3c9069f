import StubModel

/// The `scheme`, `host`, `port` and `clientIp` matchers of one ``RequestPattern``, compiled; `nil` in
/// ``CompiledRequestPattern`` when the pattern has none of them.
package struct CompiledOriginMatcher: Sendable {
    /// WireMock 3's weights for these parts of the distance (`RequestPattern.match`).
    static let schemeWeight = 3.0, hostWeight = 10.0, portWeight = 10.0, clientIpWeight = 3.0

    private let scheme: String?
    private let host: CompiledMultiValueMatcher?
    private let port: Int?
    private let clientIp: CompiledMultiValueMatcher?
    /// The sum of the weights of the parts present, added to the pattern's total weight.
    let weight: Double

    /// - Parameter compiled: the operands the loader compiled, taken instead of compiling them again.
    init?(_ pattern: RequestPattern, reusing compiled: CompiledMatchers? = nil) {
        guard pattern.scheme != nil || pattern.host != nil || pattern.port != nil || pattern.clientIp != nil else {
            return nil
        }
        scheme = pattern.scheme
        host = pattern.host.map { CompiledMultiValueMatcher(.single($0), reusing: compiled) }
        port = pattern.port
        clientIp = pattern.clientIp.map { CompiledMultiValueMatcher(.single($0), reusing: compiled) }
        weight =
            (scheme == nil ? 0 : Self.schemeWeight) + (host == nil ? 0 : Self.hostWeight)
            + (port == nil ? 0 : Self.portWeight) + (clientIp == nil ? 0 : Self.clientIpWeight)
    }

    /// Why the host or client IP matcher can never match; `nil` when both compile.
    var compileErrors: [String] {
        [host?.compileError, clientIp?.compileError].compactMap { $0 }
    }

    /// Whether every part matches.
    func isSatisfied(by context: RequestContext) -> Bool {
        if let scheme, scheme != RequestContext.scheme(of: context.request) { return false }
        if let port, context.authority.port != port { return false }
        if let host, !host.isSatisfied(by: Self.values(context.authority.host)) { return false }
        if let clientIp, !clientIp.isSatisfied(by: Self.values(context.clientIp)) { return false }
        return true
    }

    /// The weighted distance of the parts that differ, each added to `mismatches` with what was received.
    func weightedDistance(_ context: RequestContext, _ mismatches: inout [Mismatch]) -> Double {
        var weighted = 0.0
        if let scheme, case let actual = RequestContext.scheme(of: context.request), scheme != actual {
            weighted += Self.schemeWeight
            mismatches.append(Mismatch(part: .scheme, expected: Quoting.quote(scheme), actual: [actual], distance: 1))
        }
        if let host {
            let actual = Self.values(context.authority.host)
            let d = host.distance(actual)
            if d > 0 {
                weighted += Self.hostWeight * d
                mismatches.append(Mismatch(part: .host, expected: host.source.description, actual: actual, distance: d))
            }
        }
        if let port, context.authority.port != port {
            weighted += Self.portWeight
            let actual = context.authority.port.map { [String($0)] } ?? []
            mismatches.append(Mismatch(part: .port, expected: String(port), actual: actual, distance: 1))
        }
        if let clientIp {
            let actual = Self.values(context.clientIp)
            let d = clientIp.distance(actual)
            if d > 0 {
                weighted += Self.clientIpWeight * d
                mismatches.append(
                    Mismatch(part: .clientIp, expected: clientIp.source.description, actual: actual, distance: d))
            }
        }
        return weighted
    }

    private static func values(_ value: String?) -> [String] {
        value.map { [$0] } ?? []
    }
}
