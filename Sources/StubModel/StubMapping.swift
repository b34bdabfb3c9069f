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
    /// WireMock's free-form `metadata` object, kept as given: what `find-by-metadata` and
    /// `remove-by-metadata` search, and how a test tags the stubs it adds. Its `stubserver` member is
    /// read into ``times``, ``thenResponses`` and the response's `bytesPerSecond` and `hang`, and written back from them.
    public var metadata: JSONValue?
    /// `scenarioName`: the scenario whose state this stub reads and changes.
    public var scenarioName: String?
    /// `requiredScenarioState`: the stub matches only while its scenario is in this state.
    public var requiredScenarioState: String?
    /// `newScenarioState`: the state the scenario moves to when this stub answers.
    public var newScenarioState: String?
    /// The stub stops matching after answering this many times (stubserver's own; in files,
    /// `"metadata": {"stubserver": {"times": N}}`). `nil`: no limit.
    public var times: Int?
    /// Responses for the second use on, one per use, after ``response``; the last repeats (unless
    /// ``times`` stops the stub). In files, `"metadata": {"stubserver": {"then": [response, ...]}}`.
    public var thenResponses: [ResponseDefinition] = []
    /// Where a runtime stub was added (`server.stub(...)` fills it in); `nil` for stubs from files and
    /// the admin API.
    public var callSite: StubCallSite?
    /// WireMock's `persistent`: the admin API keeps the stub in a file of the stubs directory's `mappings/`, written
    /// when the stub is added or changed and deleted when it is removed, so that it survives resets and restarts
    /// (``source`` is that file). `POST /__admin/mappings/save` makes the stubs added at run time persistent.
    /// Stubs added in Swift (`server.stub`, `server.add`) are never written.
    public var persistent = false

    public static let defaultPriority = 5

    public init(
        id: String, name: String? = nil, priority: Int = StubMapping.defaultPriority,
        request: RequestPattern, response: ResponseDefinition, source: String? = nil, metadata: JSONValue? = nil
    ) {
        self.id = id
        self.name = name
        self.priority = priority
        self.request = request
        self.response = response
        self.source = source
        self.metadata = metadata
    }

    /// How the stub is named in logs and reports: its name, else its source file, else, for a stub
    /// added with `server.stub(...)`, its pattern and call site (`GET /users/octocat (ProfileTests.swift:42)`),
    /// else (a stub posted to the admin API) its pattern and id (`GET /users/octocat (id 5d1a…)`), as the
    /// near-miss report names it.
    public var displayName: String {
        if let name = name ?? source { return name }
        let summary = Quoting.truncate(request.summary, limit: Self.summaryLimit)
        guard let callSite else { return summary + " (id \(id))" }
        return summary + " (\(callSite))"
    }

    /// Longest pattern summary in a ``displayName``, in UTF-8 bytes.
    package static let summaryLimit = 120

    /// Whether answering changes state: scenarios, ``times`` or ``thenResponses``.
    package var isStateful: Bool { scenarioName != nil || times != nil || !thenResponses.isEmpty }
}
