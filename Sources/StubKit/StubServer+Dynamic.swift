/// Stubs answered by Swift code, stubs used a limited number of times, and response sequences.
extension StubServer {
    /// Adds a stub answered by `respond`, which runs on a worker thread (never an event loop), so it may
    /// block without holding up other requests. A thrown error answers 500 with its description.
    ///
    /// ```swift
    /// server.stub(.get(pathTemplate: "/users/{name}")) { request in
    ///     .json(["login": .string(request.pathParameters["name"] ?? "")])
    /// }
    /// ```
    /// The returned response may use every feature of a stub's response (delays, bandwidth, faults);
    /// a `.file` body is read from `__files` per request.
    @discardableResult
    public func stub(
        _ request: RequestPattern, priority: Int = StubMapping.defaultPriority, name: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        respond: @escaping @Sendable (StubRequest) throws -> ResponseDefinition
    ) -> StubHandle {
        add(
            StubMapping(request, .ok, priority: priority, name: name), closure: .sync(respond),
            at: StubCallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Adds a stub answered by the `async` function `respond`, run as a task (never on an event loop).
    ///
    /// ```swift
    /// server.stub(.post("/orders")) { request in
    ///     let order = try request.decode(Order.self)
    ///     return .json(["id": .string(await ids.next()), "items": JSONValue(order.items.count)], status: 201)
    /// }
    /// ```
    @discardableResult
    public func stub(
        _ request: RequestPattern, priority: Int = StubMapping.defaultPriority, name: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        respond: @escaping @Sendable (StubRequest) async throws -> ResponseDefinition
    ) -> StubHandle {
        add(
            StubMapping(request, .ok, priority: priority, name: name), closure: .async(respond),
            at: StubCallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Adds a stub that stops matching after answering `times` requests (later requests go to other
    /// stubs, or get a 404).
    ///
    /// ```swift
    /// server.stub(.get("/feed"), .status(503), times: 1, priority: 1)   // one failure, then the normal feed
    /// ```
    @discardableResult
    public func stub(
        _ request: RequestPattern, _ response: ResponseDefinition, times: Int,
        priority: Int = StubMapping.defaultPriority, name: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> StubHandle {
        let callSite = StubCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let response = resolvingBodyFile(response, stub: Self.title(request, name: name, at: callSite))
        return add(.limited(request, response, times: times, priority: priority, name: name), at: callSite)
    }

    /// What a sequence answers after its last response.
    public enum SequenceEnd: Sendable, Hashable {
        /// The last response again, for every later request.
        case repeatLast
        /// Nothing: the stub stops matching (other stubs answer, or a 404).
        case thenNotFound
    }

    /// Adds a stub answering each request with the next of `responses`.
    ///
    /// ```swift
    /// server.stubSequence(.get("/status"), [.json(["state": "pending"]), .json(["state": "done"])])
    /// server.stubSequence(.post("/token"), [.status(500), .json(["token": "t"])], .thenNotFound)
    /// ```
    @discardableResult
    public func stubSequence(
        _ request: RequestPattern, _ responses: [ResponseDefinition], _ end: SequenceEnd = .repeatLast,
        priority: Int = StubMapping.defaultPriority, name: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> StubHandle {
        let callSite = StubCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let title = Self.title(request, name: name, at: callSite)
        let resolved = responses.map { resolvingBodyFile($0, stub: title) }
        return add(
            .sequence(request, resolved, thenNotFound: end == .thenNotFound, priority: priority, name: name),
            at: callSite)
    }

    /// Adds a stub of a WireMock scenario: it matches only while `scenario` is in `whenState` (any state
    /// when `nil`), and moves it to `newState` (if given) when it answers. Scenarios start in `"Started"`.
    ///
    /// ```swift
    /// server.stub(.get("/todo"), .json(["items": []]), scenario: "Todo", whenState: "Started")
    /// server.stub(.post("/todo"), .status(201), scenario: "Todo", whenState: "Started", newState: "Added")
    /// server.stub(.get("/todo"), .json(["items": ["milk"]]), scenario: "Todo", whenState: "Added")
    /// ```
    @discardableResult
    public func stub(
        _ request: RequestPattern, _ response: ResponseDefinition, scenario: String,
        whenState: String? = nil, newState: String? = nil,
        priority: Int = StubMapping.defaultPriority, name: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> StubHandle {
        let callSite = StubCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let response = resolvingBodyFile(response, stub: Self.title(request, name: name, at: callSite))
        return add(
            .scenarioStep(
                request, response, scenario: scenario, whenState: whenState, newState: newState,
                priority: priority, name: name), at: callSite)
    }

    /// Adds `mapping`, answered by `closure`, made at `callSite`.
    func add(_ mapping: StubMapping, closure: StubClosure, at callSite: StubCallSite) -> StubHandle {
        var mapping = mapping
        mapping.callSite = callSite
        store.add(mapping, closure: closure)
        warnIfShadowed(mapping)
        return StubHandle(id: mapping.id, store: store)
    }
}
