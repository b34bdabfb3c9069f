/// The checks about stubs rather than requests: stubs added in a test that answered nothing, and
/// stubs that can never answer because another one always wins.
extension RequestVerification {
    /// `nil` if every stub added at run time answered a request, else the failure message:
    /// ```text
    /// 2 stubs added at run time answered no request:
    ///   GET /users/octocat (ProfileTests.swift:42) can never answer: "GitHub user octocat"
    ///     (Stubs/mappings/users-octocat.json) always wins (priority 1 beats 5) and matches every request it matches
    ///   POST /user/repos (ProfileTests.swift:50)
    /// ```
    static func noUnusedStubs(_ server: StubServer) -> String? {
        let unused = server.unusedRuntimeStubs
        guard !unused.isEmpty else { return nil }
        let shadows = Dictionary(server.shadowedRuntimeStubs.map { ($0.hidden.id, $0) }) { first, _ in first }
        return noUnusedStubs(unused, shadows: shadows)
    }

    /// The message for `unused`, stubs added at run time that answered nothing; nil when there are none.
    static func noUnusedStubs(_ unused: [StubMapping], shadows: [String: Shadowing] = [:]) -> String? {
        guard !unused.isEmpty else { return nil }
        var message =
            unused.count == 1
            ? "1 stub added at run time answered no request:\n"
            : "\(unused.count) stubs added at run time answered no request:\n"
        if unused.count > listLimit { message += "  (\(unused.count - listLimit) earlier not shown)\n" }
        for stub in unused.suffix(listLimit) {
            message += "  " + (shadows[stub.id]?.description ?? NearMissReport.title(stub)) + "\n"
        }
        return message
    }

    /// The stubs added at run time that never answer because the stub that answered one of `answered`
    /// always wins over them, and that would have matched it: why a test saw another stub's response.
    ///
    /// ```text
    /// Shadowed stubs:
    ///   GET /users/octocat (ProfileTests.swift:42) can never answer: "GitHub user octocat" (…) always wins …
    /// ```
    /// Empty when no shadowing explains those requests.
    static func shadowNotes(_ server: StubServer, answered: [LoggedRequest]) -> String {
        let shadows = server.shadowedRuntimeStubs
        guard !shadows.isEmpty else { return "" }
        let relevant = shadows.filter { shadow in
            let pattern = CompiledRequestPattern(shadow.hidden.request)
            return answered.contains { $0.matchedStub?.id == shadow.winner.id && pattern.matches($0.request) }
        }
        guard !relevant.isEmpty else { return "" }
        return "\nShadowed stubs:\n" + relevant.prefix(nearMissLimit).map { "  \($0.description)\n" }.joined()
    }
}
