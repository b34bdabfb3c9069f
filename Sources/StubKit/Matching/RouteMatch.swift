/// The stub chosen for a request.
public struct RouteMatch: Sendable, Hashable {
    public var mapping: StubMapping
    /// The stub's position in the table's insertion order.
    public var index: Int
    /// The decoded `{name}` segments of a `urlPathTemplate`; empty otherwise.
    public var pathParameters: [String: String]

    public init(mapping: StubMapping, index: Int, pathParameters: [String: String] = [:]) {
        self.mapping = mapping
        self.index = index
        self.pathParameters = pathParameters
    }
}

/// A stub that did not match a request, and how far it was.
public struct NearMiss: Sendable, Hashable {
    public var mapping: StubMapping
    /// The stub's position in the table's insertion order.
    public var index: Int
    public var result: MatchResult

    public init(mapping: StubMapping, index: Int, result: MatchResult) {
        self.mapping = mapping
        self.index = index
        self.result = result
    }
}
