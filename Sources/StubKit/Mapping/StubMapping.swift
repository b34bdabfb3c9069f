/// One stub: a request pattern and the response to serve when it matches (a WireMock stub mapping).
public struct StubMapping: Sendable, Hashable, Identifiable {
    /// The mapping's `id` (or `uuid`); a random UUID string when the file has none.
    public var id: String
    /// The optional `name`, used in logs and near-miss reports.
    public var name: String?
    /// Lower wins. Default 5, as in WireMock.
    public var priority: Int
    public var request: RequestPattern
    public var response: ResponseDefinition
    /// Where the stub was defined, for messages: e.g. `Stubs/mappings/users.json` or
    /// `Stubs/mappings/all.json [2]`; `nil` for stubs added at run time.
    public var source: String?

    public static let defaultPriority = 5

    public init(id: String, name: String? = nil, priority: Int = StubMapping.defaultPriority,
                request: RequestPattern, response: ResponseDefinition, source: String? = nil) {
        self.id = id
        self.name = name
        self.priority = priority
        self.request = request
        self.response = response
        self.source = source
    }

    /// How the stub is named in logs: its name, else its source, else its id.
    public var displayName: String { name ?? source ?? id }
}
