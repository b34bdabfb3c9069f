import StubHTTP
import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``RequestPattern`` with its regular expressions, templates and JSONPaths compiled once, so it can
/// be matched against many requests. ``RouteTable`` builds one per stub.
///
/// ```swift
/// let pattern = CompiledRequestPattern(RequestPattern(method: .exactly("GET"), url: .urlPathTemplate("/users/{name}")))
/// let result = pattern.match(StubHTTPRequest(method: .get, target: "/users/octocat"))
/// result.isMatch                  // true
/// result.pathParameters["name"]   // "octocat"
/// ```
///
/// A class: the route table tries thousands of them per request and borrows each instead of copying it.
public final class CompiledRequestPattern: Sendable {
    /// WireMock's weights for the distance: the URL counts most, then the method.
    static let urlWeight = 10.0, methodWeight = 3.0, fieldWeight = 1.0
    /// A GraphQL operation (query and operation name) weighs as a URL: every operation shares one URL, so the
    /// operation is what picks the endpoint. Its variables weigh as a body.
    static let graphQLOperationWeight = urlWeight
    static let totalWeight = urlWeight + methodWeight + 4 * fieldWeight

    /// The pattern this was compiled from.
    public let pattern: RequestPattern
    let url: CompiledURLMatcher?
    /// The URL is a `urlPathTemplate`: the only kind with path parameters (read before asking ``url`` for them).
    private let hasPathTemplate: Bool
    /// The method a request must have, or `nil` for any.
    private let method: String?
    private let query: [(name: String, matcher: CompiledMultiValueMatcher)]
    private let headers: [(name: String, matcher: CompiledMultiValueMatcher)]
    private let cookies: [(name: String, matcher: CompiledMultiValueMatcher)]
    private let body: [CompiledStringMatcher]
    private let multipart: [CompiledMultipartPattern]
    private let graphQL: CompiledGraphQLMatcher?
    private let pathParameters: [(name: String, matcher: CompiledMultiValueMatcher)]
    private let form: [(name: String, matcher: CompiledMultiValueMatcher)]
    /// `scheme`, `host`, `port` and `clientIp`, when the pattern has any.
    private let origin: CompiledOriginMatcher?
    /// ``totalWeight`` plus the weights of the pattern's `origin` and form parameters.
    private let patternWeight: Double
    /// `basic <base64>` in lower case: WireMock 2.35.1 compares the whole `Authorization` value ignoring
    /// case (it accepts `BASIC dTpwOnc=` and even `Basic DTPWONC=`).
    private let expectedAuthorization: String?
    /// Whether anything besides the method and URL is matched (query, headers, auth, cookies, body).
    let hasFieldMatchers: Bool
    /// Matchers of the stub file stubserver does not implement: while there is one, nothing matches.
    private let unsupported: [UnsupportedMatcher]
    /// Header fields (any case) a request must carry to match: headers whose matcher fails when the
    /// field is absent, `Authorization` for basic auth, `Cookie` when a cookie matcher fails on an absent
    /// cookie. What ``RouteGate`` checks before asking the pattern.
    let requiredHeaders: [String]
    /// Query parameters (decoded names) a request must carry to match.
    let requiredQuery: [String]
    /// Whether some body matcher fails on an absent (empty) body.
    let requiresBody: Bool

    public convenience init(_ pattern: RequestPattern) {
        self.init(pattern, owner: nil)
    }

    /// - Parameters:
    ///   - owner: the stub to name in a warning when a URL pattern's evaluation runs out of budget.
    ///   - compiled: the operands the loader compiled (``CompiledMatchers``), taken instead of compiling them again;
    ///     by default those the loader kept in the pattern (``RequestPattern/loaded``).
    init(_ pattern: RequestPattern, owner: RegexOwner?, reusing compiled: CompiledMatchers? = nil) {
        let compiled = compiled ?? pattern.loaded.value as? CompiledMatchers
        self.pattern = pattern
        url = pattern.url.map { CompiledURLMatcher($0, owner: owner, reusing: compiled) }
        if case .urlPathTemplate = pattern.url { hasPathTemplate = true } else { hasPathTemplate = false }
        if case let .exactly(method) = pattern.method { self.method = method } else { method = nil }
        func named(_ field: NamedMatcher) -> (name: String, matcher: CompiledMultiValueMatcher) {
            (field.name, CompiledMultiValueMatcher(field.matcher, reusing: compiled))
        }
        query = pattern.queryParameters.map(named)
        headers = pattern.headers.map(named)
        cookies = pattern.cookies.map(named)
        body = pattern.bodyPatterns.map { CompiledStringMatcher($0, reusing: compiled) }
        multipart = pattern.multipartPatterns.map { CompiledMultipartPattern($0, reusing: compiled) }
        graphQL = pattern.graphQL.map { CompiledGraphQLMatcher($0, reusing: compiled) }
        pathParameters = pattern.pathParameters.map(named)
        form = pattern.formParameters.map(named)
        origin = CompiledOriginMatcher(pattern, reusing: compiled)
        patternWeight =
            Self.totalWeight + (origin?.weight ?? 0) + (form.isEmpty ? 0 : Self.fieldWeight)
            + (graphQL == nil ? 0 : Self.graphQLOperationWeight)
        expectedAuthorization = pattern.basicAuthCredentials.map {
            ("Basic " + Data(($0.username + ":" + $0.password).utf8).base64EncodedString()).lowercased()
        }
        unsupported = pattern.unsupportedMatchers
        hasFieldMatchers =
            !(query.isEmpty && headers.isEmpty && cookies.isEmpty && body.isEmpty && expectedAuthorization == nil
            && unsupported.isEmpty && multipart.isEmpty && pathParameters.isEmpty && form.isEmpty && origin == nil
            && graphQL == nil)
        var requiredHeaders = headers.filter { !$0.matcher.isSatisfied(by: []) }.map(\.name)
        if expectedAuthorization != nil { requiredHeaders.append("Authorization") }
        if cookies.contains(where: { !$0.matcher.isSatisfied(by: []) }) { requiredHeaders.append("Cookie") }
        if !multipart.isEmpty { requiredHeaders.append("Content-Type") }
        self.requiredHeaders = requiredHeaders
        requiredQuery = query.filter { !$0.matcher.isSatisfied(by: []) }.map(\.name)
        let absent = MatchSubject(nil)
        requiresBody = body.contains { !$0.isSatisfied(by: absent) } || !multipart.isEmpty
    }

    /// Why some matcher can never match (a regular expression, template or JSONPath that does not
    /// compile); empty when the pattern is sound. Such a matcher matches nothing.
    public var compileErrors: [String] {
        var errors: [String] = unsupported.map(\.message)
        if let e = url?.compileError { errors.append(e) }
        for (_, m) in query + headers + cookies + form { if let e = m.compileError { errors.append(e) } }
        errors += origin?.compileErrors ?? []
        for m in body { if let e = m.compileError { errors.append(e) } }
        for m in multipart { if let e = m.compileError { errors.append(e) } }
        if let e = graphQL?.compileError { errors.append(e) }
        for (_, m) in pathParameters { if let e = m.compileError { errors.append(e) } }
        return errors
    }

    /// Matches `request` completely: whether it matches, how far it is, what differs (for a JSON
    /// body, field by field: ``Mismatch/details``).
    public func match(_ request: StubHTTPRequest) -> MatchResult {
        evaluate(RequestContext(request), explaining: true)
    }

    /// Whether `request` matches, computing no distance and no report.
    public func matches(_ request: StubHTTPRequest) -> Bool {
        quickMatch(RequestContext(request))
    }

    /// The fast path: whether the request matches, stopping at the first difference and computing no
    /// distances and no path parameters (``pathParameters(_:)`` gives the winner's).
    func quickMatch(_ context: RequestContext) -> Bool {
        if let method, method != context.request.method.rawValue { return false }
        return quickMatch(context, urlChecked: false)
    }

    /// ``quickMatch(_:)`` for a ``RouteTable`` candidate, whose method is known to match, and its URL too
    /// when `urlChecked`. The cheaper matchers go first: headers are scanned in place, the query and
    /// cookies are parsed once per request, bodies may be parsed as JSON.
    func quickMatch(_ context: RequestContext, urlChecked: Bool) -> Bool {
        if !urlChecked, url?.matches(context) == false { return false }
        guard hasFieldMatchers else { return true }
        guard unsupported.isEmpty else { return false }
        if let origin, !origin.isSatisfied(by: context) { return false }
        for (name, m) in headers where !m.isSatisfied(byHeader: name, in: context.request.headers) { return false }
        if let expectedAuthorization, !Self.hasAuthorization(expectedAuthorization, context) { return false }
        for (name, m) in query where !m.isSatisfied(by: context.query[name] ?? []) { return false }
        for (name, m) in cookies where !m.isSatisfied(by: context.cookies[name] ?? []) { return false }
        for (name, m) in form where !m.isSatisfied(by: context.formParameters[name] ?? []) { return false }
        for m in body where !m.isSatisfied(by: context.body) { return false }
        for m in multipart where !m.isSatisfied(by: context.multipartParts, jsonByteLimit: context.jsonByteLimit) {
            return false
        }
        if let graphQL, !graphQL.isSatisfied(by: context) { return false }
        if !pathParameters.isEmpty {
            let values = self.pathParameters(context)
            for (name, m) in pathParameters where !m.isSatisfied(by: values[name].map { [$0] } ?? []) { return false }
        }
        return true
    }

    /// A cheap stand-in for ``evaluate(_:explaining:)``'s distance, to pick which stubs a near-miss report
    /// compares in full: the method and the URL only, an exact URL compared by its common prefix and
    /// suffix (linear) instead of its edit distance (quadratic).
    func cheapDistance(_ context: RequestContext) -> Double {
        var weighted = 0.0
        if let method, method != context.request.method.rawValue { weighted += Self.methodWeight }
        if let url { weighted += Self.urlWeight * url.cheapDistance(context) }
        return weighted
    }

    /// The decoded `{name}` segments of a `urlPathTemplate` the request matched; empty otherwise.
    func pathParameters(_ context: RequestContext) -> [String: String] {
        guard hasPathTemplate, let url else { return [:] }
        return url.parameters(context)
    }

    /// `authorizationDistance(...) == 0`, computing no distance.
    private static func hasAuthorization(_ expected: String, _ context: RequestContext) -> Bool {
        for field in context.request.headers where StubHTTPHeaders.equalsIgnoringCase(field.name, "Authorization") {
            if field.value.trimmingSpaces().lowercased() == expected { return true }
        }
        return false
    }

    /// The full comparison, with distance and mismatches.
    /// - Parameter explaining: also compute the field-level differences of JSON bodies
    ///   (``Mismatch/details``): for the few stubs a report shows, not for ranking them all.
    func evaluate(_ context: RequestContext, explaining: Bool = false) -> MatchResult {
        var mismatches: [Mismatch] = []
        var weighted = 0.0
        let request = context.request

        if case let .exactly(method) = pattern.method, method != request.method.rawValue {
            weighted += Self.methodWeight
            mismatches.append(
                Mismatch(part: .method, expected: Quoting.quote(method), actual: [request.method.rawValue], distance: 1)
            )
        }
        if let origin { weighted += origin.weightedDistance(context, &mismatches) }
        var parameters: [String: String] = [:]
        var urlMatched = true
        if let url {
            let (distance, found) = url.match(context)
            parameters = found
            urlMatched = distance == 0
            if distance > 0 {
                weighted += Self.urlWeight * distance
                mismatches.append(
                    Mismatch(
                        part: .url, expected: url.source.description, actual: [url.subject(context)], distance: distance
                    ))
            }
        }
        // The URL's distance stands for path parameters when it did not match (they have no values then).
        if !pathParameters.isEmpty, urlMatched {
            weighted +=
                Self.fieldWeight
                * fieldDistance(
                    pathParameters, Mismatch.Part.pathParameter, { parameters[$0].map { [$0] } ?? [] }, &mismatches)
        }
        weighted +=
            Self.fieldWeight
            * fieldDistance(query, Mismatch.Part.queryParameter, { context.query[$0] ?? [] }, &mismatches)
        if !form.isEmpty {
            weighted +=
                Self.fieldWeight
                * fieldDistance(form, Mismatch.Part.formParameter, { context.formParameters[$0] ?? [] }, &mismatches)
        }

        var headerDistances: [Double] = []
        for (name, m) in headers {
            let values = request.headers[name]
            let d = m.distance(values)
            headerDistances.append(d)
            if d > 0 {
                mismatches.append(
                    Mismatch(part: .header(name), expected: m.source.description, actual: values, distance: d))
            }
        }
        if let expectedAuthorization, let credentials = pattern.basicAuthCredentials {
            let d = authorizationDistance(expectedAuthorization, context)
            headerDistances.append(d)
            if d > 0 {
                let expected = "Basic credentials " + Quoting.quote(credentials.username + ":" + credentials.password)
                mismatches.append(
                    Mismatch(
                        part: .basicAuth, expected: expected, actual: request.headers["Authorization"], distance: d))
            }
        }
        weighted += Self.fieldWeight * Self.average(headerDistances)

        weighted +=
            Self.fieldWeight * fieldDistance(cookies, Mismatch.Part.cookie, { context.cookies[$0] ?? [] }, &mismatches)

        var bodyDistances: [Double] = []
        for m in body {
            let d = m.distance(context.body)
            bodyDistances.append(d)
            if d > 0 {
                mismatches.append(
                    Mismatch(
                        part: .body, expected: m.source.description, actual: context.body.text.map { [$0] } ?? [],
                        distance: d, details: explaining ? m.explain(context.body) : []))
            }
        }
        for m in multipart where !m.isSatisfied(by: context.multipartParts, jsonByteLimit: context.jsonByteLimit) {
            bodyDistances.append(1)
            let parts = context.multipartParts
            let actual = parts.map { ["\($0.count) part\($0.count == 1 ? "" : "s")"] } ?? ["not a multipart body"]
            mismatches.append(Mismatch(part: .multipart, expected: m.expectedDescription, actual: actual, distance: 1))
        }
        if let graphQL {
            let found = graphQL.mismatches(context, explaining: explaining)
            mismatches += found.all
            weighted += Self.graphQLOperationWeight * found.operationDistance
            bodyDistances.append(found.variablesDistance)
        }
        weighted += Self.fieldWeight * Self.average(bodyDistances)

        for matcher in unsupported {
            weighted += Self.fieldWeight
            mismatches.append(
                Mismatch(
                    part: matcher.part,
                    expected:
                        "\(matcher.name) at \(matcher.field) (not supported by stubserver: this stub never matches)",
                    actual: [], distance: 1))
        }

        let distance = mismatches.isEmpty ? 0 : min(1, max(weighted / patternWeight, .ulpOfOne))
        return MatchResult(
            distance: distance, mismatches: mismatches, pathParameters: mismatches.isEmpty ? parameters : [:])
    }

    private func fieldDistance(
        _ matchers: [(name: String, matcher: CompiledMultiValueMatcher)], _ part: (String) -> Mismatch.Part,
        _ values: (String) -> [String], _ mismatches: inout [Mismatch]
    ) -> Double {
        var distances: [Double] = []
        for (name, m) in matchers {
            let actual = values(name)
            let d = m.distance(actual)
            distances.append(d)
            if d > 0 {
                mismatches.append(
                    Mismatch(part: part(name), expected: m.source.description, actual: actual, distance: d))
            }
        }
        return Self.average(distances)
    }

    private func authorizationDistance(_ expected: String, _ context: RequestContext) -> Double {
        var best = 1.0
        for value in context.request.headers["Authorization"] {
            best = min(best, StringDistance.normalisedLevenshtein(expected, value.trimmingSpaces().lowercased()))
        }
        return best
    }

    private static func average(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }
}

extension RequestPattern {
    /// Matches `request` against this pattern (compiling it first; for many requests, compile once with
    /// ``CompiledRequestPattern`` or use a ``RouteTable``).
    public func match(_ request: StubHTTPRequest) -> MatchResult {
        CompiledRequestPattern(self).match(request)
    }
}
