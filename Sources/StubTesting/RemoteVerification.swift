import Foundation

/// The checks behind the `async` assertion helpers for an ``AsyncStubServerAdmin`` (a client, a
/// launched process, an ``AnyStubServer``): the same messages as for an in-process ``StubServer``.
/// An ``AnyStubServer`` holding an in-process server is checked in-process.
enum RemoteVerification {
    static func requested(
        _ server: some AsyncStubServerAdmin, _ pattern: RequestPattern, count: Int?,
        atLeast: Int = 1
    ) async -> String? {
        if let local = (server as? AnyStubServer)?.inProcess {
            return RequestVerification.requested(local, pattern, count: count, atLeast: atLeast)
        }
        do {
            return RequestVerification.requested(
                try await server.matchResults(for: pattern), pattern,
                count: count, atLeast: atLeast, journal: nil)
        } catch {
            return "Could not check the requests at \(server.baseURL.absoluteString): \(error)"
        }
    }

    static func noUnmatchedRequests(_ server: some AsyncStubServerAdmin) async -> String? {
        if let local = (server as? AnyStubServer)?.inProcess { return RequestVerification.noUnmatchedRequests(local) }
        do {
            let unmatched = try await server.unmatchedRequests
            let unexpected = (server as? AnyStubServer)?.remoteLedger.leavingOutExpected(unmatched) ?? unmatched
            return RequestVerification.noUnmatchedRequests(unexpected)
        } catch {
            return "Could not check the unmatched requests at \(server.baseURL.absoluteString): \(error)"
        }
    }

    /// The stubs the test added through `server` that answered no request: for a server outside this process, those
    /// added through this `AnyStubServer` (its file stubs are not the test's); in-process, every stub added at run
    /// time, as for a `StubServer`.
    static func noUnusedStubs(_ server: AnyStubServer) async -> String? {
        if let local = server.inProcess { return RequestVerification.noUnusedStubs(local) }
        let added = server.remoteLedger.addedStubIDs
        guard !added.isEmpty else { return nil }
        do {
            return RequestVerification.noUnusedStubs(try await server.unusedStubs.filter { added.contains($0.id) })
        } catch {
            return "Could not check the unused stubs at \(server.baseURL.absoluteString): \(error)"
        }
    }

    /// Waits up to `timeout` for `count` matching requests (not for `count: 0`), then checks as ``requested(_:_:count:atLeast:)``.
    static func requested(
        _ server: some AsyncStubServerAdmin, _ pattern: RequestPattern, count: Int?,
        within timeout: Duration
    ) async -> String? {
        if count != 0 {
            _ = try? await server.awaitRequests(matching: pattern, count: max(1, count ?? 1), timeout: timeout)
        }
        guard let failure = await requested(server, pattern, count: count) else { return nil }
        return (count == 0 ? "" : "After waiting \(RequestVerification.describe(timeout)): ") + failure
    }
}

extension AsyncStubServerAdmin {
    /// Waits until the server has received `count` requests matching `pattern` and returns them, oldest
    /// first; on timeout the test fails with the usual report and the requests that did match are
    /// returned. As ``StubServer/waitForRequest(matching:count:timeout:file:line:)``, but over the admin API
    /// the journal is polled (see ``StubServerClient/awaitRequests(matching:count:timeout:)``).
    ///
    /// ```swift
    /// app.buttons["Search"].tap()
    /// let requests = await server.waitForRequest(matching: .get("/users/octocat"))
    /// ```
    /// - Parameters:
    ///   - pattern: the requests to wait for.
    ///   - count: how many matching requests to wait for (at least). Default 1.
    ///   - timeout: default 5 seconds.
    ///   - file: where a failure points; leave the default.
    ///   - line: where a failure points; leave the default.
    @discardableResult
    public func waitForRequest(
        matching pattern: RequestPattern, count: Int = 1, timeout: Duration = .seconds(5),
        file: StaticString = #filePath, line: UInt = #line
    ) async -> [LoggedRequest] {
        let requests: [LoggedRequest]
        do {
            requests = try await awaitRequests(matching: pattern, count: count, timeout: timeout)
        } catch {
            await reportFailure(
                "Could not wait for requests at \(baseURL.absoluteString): \(error)",
                at: .xctest(file: file, line: line), server: self)
            return []
        }
        if requests.count < count {
            let report = await RemoteVerification.requested(self, pattern, count: nil, atLeast: count)
            await reportFailure(
                RequestVerification.timedOut(after: timeout, report: report), at: .xctest(file: file, line: line),
                server: self)
        }
        return requests
    }
}
