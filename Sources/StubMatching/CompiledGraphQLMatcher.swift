import StubModel

/// A ``GraphQLMatcher`` ready to match: its document normalised and hashed once.
package struct CompiledGraphQLMatcher: Sendable {
    let source: GraphQLMatcher
    /// The normal form of a ``GraphQLMatcher/Query/document(_:)``, or why it has none.
    private let expectedQuery: Result<String, GraphQLNormalizationError>?
    private let queryMatcher: CompiledStringMatcher?
    private let operationName: CompiledStringMatcher?
    private let variables: CompiledStringMatcher?
    /// ``GraphQLMatcher/persistedQueryHash`` in lower case.
    private let expectedHash: String?
    /// The SHA-256 of a ``GraphQLMatcher/Query/document(_:)``'s text.
    private let documentHash: String?

    /// - Parameter compiled: the operands the loader compiled, taken instead of compiling them again.
    init(_ source: GraphQLMatcher, reusing compiled: CompiledMatchers? = nil) {
        self.source = source
        switch source.query {
        case .document(let text)?:
            expectedQuery = compiled?.normalizedQuery(text) ?? Self.normalizedQuery(text)
            documentHash = SHA256.hex(text)
            queryMatcher = nil
        case .normalized(let matcher)?:
            (expectedQuery, documentHash, queryMatcher) = (nil, nil, CompiledStringMatcher(matcher, reusing: compiled))
        case nil:
            (expectedQuery, documentHash, queryMatcher) = (nil, nil, nil)
        }
        operationName = source.operationName.map { CompiledStringMatcher($0, reusing: compiled) }
        variables = source.variables.map { CompiledStringMatcher($0, reusing: compiled) }
        expectedHash = source.persistedQueryHash?.lowercased()
    }

    /// A ``GraphQLMatcher/Query/document(_:)``'s normal form, or why it has none: what the loader checks a stub
    /// file's query with.
    package static func normalizedQuery(_ text: String) -> Result<String, GraphQLNormalizationError> {
        Result { () throws(GraphQLNormalizationError) in try GraphQLNormalizer.normalize(text) }
    }

    /// Why the matcher cannot match anything (a query that does not parse, a regex that does not compile).
    var compileError: String? {
        if case .failure(let error)? = expectedQuery { return "GraphQL query: \(error.description)" }
        return [queryMatcher, operationName, variables].lazy.compactMap { $0?.compileError }.first
    }

    func isSatisfied(by context: RequestContext) -> Bool { mismatches(context, explaining: false).all.isEmpty }

    /// What differs in a GraphQL request, weighed in two parts for near-miss ranking: the operation (query, operation
    /// name, persisted-query hash, or not a GraphQL request at all), which picks the endpoint as a URL does, and the
    /// variables, its arguments, as a body is. Another operation is further than other variables.
    struct Mismatches: Sendable {
        /// One ``Mismatch`` per GraphQL field, in the order query, hash, operation name, variables.
        var all: [Mismatch] = []
        /// The operation's fields' distances, summed and capped at 1.
        var operationDistance = 0.0
        /// The variables' distance, in [0, 1].
        var variablesDistance = 0.0
    }

    /// What differs, one ``Mismatch`` per GraphQL field (`GraphQL operationName: expected "GetUser", got
    /// "GetRepo"`); empty when the request matches.
    /// - Parameter explaining: whether to list what differs inside the variables (``Mismatch/details``).
    func mismatches(_ context: RequestContext, explaining: Bool = true) -> Mismatches {
        guard let request = context.graphQL else {
            let actual = context.body.text.map { [$0] } ?? []
            let notGraphQL = Mismatch(
                part: .graphQL("request"),
                expected: "a GraphQL request (a JSON body, application/graphql or GET parameters)",
                actual: actual, distance: 1)
            return Mismatches(all: [notGraphQL], operationDistance: 1, variablesDistance: variables == nil ? 0 : 1)
        }
        var result: [Mismatch] = []
        if request.query != nil || request.persistedQueryHash == nil {
            queryMismatch(request).map { result.append($0) }
            if let expectedHash, request.persistedQueryHash != expectedHash, request.queryHash != expectedHash {
                result.append(hashMismatch(expectedHash, request))
            }
        } else if let hash = request.persistedQueryHash {
            // Only a hash (Apollo's first try): the stub's hash, or the hash of the stub's query text.
            if let expected = expectedHash ?? documentHash {
                if hash != expected { result.append(hashMismatch(expected, request)) }
            } else if let queryMatcher, !queryMatcher.isSatisfied(by: MatchSubject(nil)) {
                result.append(
                    Mismatch(
                        part: .graphQL("query"), expected: queryMatcher.source.description, actual: [], distance: 1))
            }
        }
        if let operationName {
            let subject = MatchSubject(request.operationName)
            if !operationName.isSatisfied(by: subject) {
                result.append(
                    Mismatch(
                        part: .graphQL("operationName"), expected: Self.expected(operationName.source),
                        actual: request.operationName.map { [$0] } ?? [], distance: operationName.distance(subject)))
            }
        }
        let operationDistance = min(1, result.map(\.distance).reduce(0, +))
        var variablesDistance = 0.0
        if let variables {
            let text = request.variables?.serialized()
            let subject = request.variables.map { MatchSubject(json: $0, text: $0.serialized()) } ?? MatchSubject(nil)
            if !variables.isSatisfied(by: subject) {
                variablesDistance = variables.distance(subject)
                result.append(
                    Mismatch(
                        part: .graphQL("variables"), expected: variables.source.description,
                        actual: text.map { [$0] } ?? [], distance: variablesDistance,
                        details: explaining ? variables.explain(subject) : []))
            }
        }
        // Reports name the operation the request sent: `GraphQL variables (operation "GetUser")`.
        if let name = request.operationName {
            for index in result.indices {
                if case .graphQL(let field) = result[index].part, field != "operationName" {
                    result[index].part = .graphQL("\(field) (operation \(Quoting.quote(name, limit: 80)))")
                }
            }
        }
        return Mismatches(all: result, operationDistance: operationDistance, variablesDistance: variablesDistance)
    }

    private func queryMismatch(_ request: GraphQLRequest) -> Mismatch? {
        let normal = request.normalizedQuery
        switch source.query {
        case .document?:
            guard case .success(let expected)? = expectedQuery else {
                return Mismatch(part: .graphQL("query"), expected: compileError ?? "", actual: [], distance: 1)
            }
            switch normal {
            case .success(let actual)? where actual == expected: return nil
            case .success(let actual)?:
                return Mismatch(
                    part: .graphQL("query"), expected: expected, actual: [actual],
                    distance: Self.distance(expected, actual),
                    details: [Self.difference(expected, actual)])
            case .failure(let error)?:
                return Mismatch(
                    part: .graphQL("query"), expected: expected, actual: [request.query ?? ""], distance: 1,
                    details: ["the request's query does not parse: \(error.description)"])
            case nil:
                return Mismatch(part: .graphQL("query"), expected: expected, actual: [], distance: 1)
            }
        case .normalized?:
            guard let queryMatcher else { return nil }
            // A query that does not parse has no normal form: it matches no query matcher, not even `absent`.
            if case .failure(let error)? = normal {
                return Mismatch(
                    part: .graphQL("query"), expected: queryMatcher.source.description, actual: [request.query ?? ""],
                    distance: 1, details: ["the request's query does not parse: \(error.description)"])
            }
            let text = try? normal?.get()
            let subject = MatchSubject(text)
            guard !queryMatcher.isSatisfied(by: subject) else { return nil }
            return Mismatch(
                part: .graphQL("query"), expected: queryMatcher.source.description, actual: text.map { [$0] } ?? [],
                distance: queryMatcher.distance(subject))
        case nil:
            return nil
        }
    }

    private func hashMismatch(_ expected: String, _ request: GraphQLRequest) -> Mismatch {
        Mismatch(
            part: .graphQL("persistedQuery"), expected: "sha256Hash " + Quoting.quote(expected),
            actual: request.persistedQueryHash.map { [$0] } ?? [], distance: 1)
    }

    /// `"GetUser"` for a plain `equalTo`, the matcher's description otherwise.
    private static func expected(_ matcher: StringMatcher) -> String {
        if case .equalTo(let text, false) = matcher { return Quoting.quote(text) }
        return matcher.description
    }

    /// How far apart two normal forms are, by their common prefix (linear: documents may be large).
    private static func distance(_ expected: String, _ actual: String) -> Double {
        let common = zip(expected.utf8, actual.utf8).prefix { $0 == $1 }.count
        let longest = max(expected.utf8.count, actual.utf8.count)
        return max(Double(longest - common) / Double(max(longest, 1)), 0.01)
    }

    /// `GraphQL query differs at character 12: expected …"name } }", got …"id } }"`.
    static func difference(_ expected: String, _ actual: String) -> String {
        let left = Array(expected), right = Array(actual)
        var index = 0
        while index < left.count, index < right.count, left[index] == right[index] { index += 1 }
        func excerpt(_ characters: [Character]) -> String {
            let start = max(0, index - 20)
            let end = min(characters.count, index + 40)
            let text = String(characters[start..<end])
            return (start > 0 ? "…" : "") + Quoting.quote(text) + (end < characters.count ? "…" : "")
        }
        return "GraphQL query differs at character \(index + 1): expected \(excerpt(left)), got \(excerpt(right))"
    }
}
