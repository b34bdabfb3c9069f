import StubModel

/// The stub chosen for a request.
public struct RouteMatch: Sendable, Hashable {
    /// The stub: an element of the route table's stubs, which are shared rather than copied (a copy
    /// retains every field of the stub, on every request).
    public var mapping: StubMapping {
        get { stubs[stubIndex] }
        set { stubs = [newValue]; stubIndex = 0 }
    }
    /// The stub's position in the table's insertion order.
    public var index: Int
    /// The decoded `{name}` segments of a `urlPathTemplate`; empty otherwise.
    public var pathParameters: [String: String]
    /// Holds ``mapping`` at `stubIndex`: the table's stubs, or the one stub given to ``init(mapping:index:pathParameters:)``.
    private var stubs: [StubMapping]
    private var stubIndex: Int

    public init(mapping: StubMapping, index: Int, pathParameters: [String: String] = [:]) {
        stubs = [mapping]
        stubIndex = 0
        self.index = index
        self.pathParameters = pathParameters
    }

    /// The stub `mappings[index]`, without copying it.
    init(in mappings: [StubMapping], at index: Int, pathParameters: [String: String]) {
        stubs = mappings
        stubIndex = index
        self.index = index
        self.pathParameters = pathParameters
    }

    /// The stub's id, read in place (``mapping`` returns a copy of the whole stub).
    var mappingID: String {
        stubs.withUnsafeBufferPointer { $0[stubIndex].id }
    }

    /// Reads the stub in place (``mapping`` returns a copy of the whole stub).
    package func withMapping<Result>(_ read: (StubMapping) -> Result) -> Result {
        stubs.withUnsafeBufferPointer { read($0[stubIndex]) }
    }

    public static func == (a: RouteMatch, b: RouteMatch) -> Bool {
        a.index == b.index && a.pathParameters == b.pathParameters && a.mapping == b.mapping
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mapping)
        hasher.combine(index)
        hasher.combine(pathParameters)
    }
}

/// A stub that did not match a request, and how far it was.
public struct NearMiss: Sendable, Hashable {
    public var mapping: StubMapping
    /// The stub's position in the table's insertion order.
    public var index: Int
    public var result: MatchResult
    /// Why the stub does not answer although the request matches it (``result`` has no differences): its
    /// scenario is in another state, its use limit is reached, or its sequence has finished. `nil` otherwise.
    public var notAnswering: String?

    public init(mapping: StubMapping, index: Int, result: MatchResult) {
        self.mapping = mapping
        self.index = index
        self.result = result
    }
}
