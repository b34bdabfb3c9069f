extension StubServer {
    /// The stubs added at run time that can never answer, because another stub matches every request
    /// they match and wins (see ``Shadowing``), in the order they were added.
    ///
    /// ```swift
    /// server.stub(.get("/users/octocat"), .json(["login": "mona"]))   // the demo's priority-1 stub wins
    /// server.shadowedRuntimeStubs.first?.winner.name                  // "GitHub user octocat"
    /// ```
    public var shadowedRuntimeStubs: [Shadowing] {
        let runtime = Set(store.runtimeMappings.map(\.id))
        return Shadowing.find(in: store.snapshot.table).filter { runtime.contains($0.hidden.id) }
    }

    /// Warns through the log, and the test helpers' hook (see ``FailureLedger``), when `mapping`, just
    /// added, can never answer.
    func warnIfShadowed(_ mapping: StubMapping) {
        guard let shadow = Shadowing.of(mapping, in: store.snapshot.table) else { return }
        log.write("stubserver: warning: \(shadow.warning)")
        failureLedger.noteShadowed(shadow)
    }
}
