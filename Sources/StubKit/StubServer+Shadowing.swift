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
        return Shadowing.find(in: store.mappings).filter { runtime.contains($0.hidden.id) }
    }

    /// Warns through the log, and the test helpers' hook (see ``FailureLedger``), when `mapping`, just
    /// added, can never answer.
    func warnIfShadowed(_ mapping: StubMapping) {
        guard let shadow = Shadowing.of(mapping, in: store.mappings) else { return }
        log.write("stubserver: warning: \(shadow.warning)")
        failureLedger.noteShadowed(shadow)
    }
}

extension Shadowing {
    /// The stub that always wins over the newest stub with `mapping`'s id in `mappings`, if one provably
    /// does: ``find(in:)`` for one stub, without building a route table.
    public static func of(_ mapping: StubMapping, in mappings: [StubMapping]) -> Shadowing? {
        guard let hiddenIndex = mappings.lastIndex(where: { $0.id == mapping.id }) else { return nil }
        let hidden = mappings[hiddenIndex]
        for (winnerIndex, winner) in mappings.enumerated() where winnerIndex != hiddenIndex {
            guard winner.alwaysMatches,
                winner.priority < hidden.priority || (winner.priority == hidden.priority && winnerIndex > hiddenIndex),
                winner.request.matchesEverything(of: hidden.request),
                CompiledRequestPattern(winner.request).compileErrors.isEmpty
            else { continue }
            return Shadowing(hidden: hidden, hiddenIndex: hiddenIndex, winner: winner, winnerIndex: winnerIndex)
        }
        return nil
    }

    /// What the server logs when such a stub is added, with the way out:
    /// `stub GET /users/octocat (ProfileTests.swift:42) can never answer: "GitHub user octocat"
    /// (Stubs/mappings/users-octocat.json) always wins (priority 1 beats 5) and matches every request it
    /// matches; give it priority 1 or remove the other stub`.
    public var warning: String {
        "stub " + description + "; give it priority \(winner.priority) or remove the other stub"
    }
}
