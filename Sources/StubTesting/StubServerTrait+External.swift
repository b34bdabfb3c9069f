#if canImport(Testing)
    import Foundation
    import Testing

    extension StubServerTrait {
        /// Runs `function` with a client to the external server at `url` as ``AnyStubServer/current``: one
        /// test at a time in this process (they share one server), after a reset.
        /// - Parameter location: where failures found after the test are reported (the test's declaration).
        func withExternalServer(
            at url: URL, reportingAt location: SourceLocation,
            performing function: @Sendable () async throws -> Void
        ) async throws {
            // A test's own `.stubServer` runs inside its suite's: the outer scope already holds the turn.
            if Self.holdsExternalTurn {
                return try await runWithExternalServer(at: url, reportingAt: location, performing: function)
            }
            await Self.externalTurns.enter()
            do {
                try await Self.$holdsExternalTurn.withValue(true) {
                    try await runWithExternalServer(at: url, reportingAt: location, performing: function)
                }
            } catch {
                await Self.externalTurns.leave()
                throw error
            }
            await Self.externalTurns.leave()
        }

        private func runWithExternalServer(
            at url: URL, reportingAt location: SourceLocation,
            performing function: @Sendable () async throws -> Void
        ) async throws {
            let client = StubServerClient(baseURL: url, headers: external.adminHeaders)
            do {
                try await client.reset()
            } catch {
                throw ExternalStubServerError(
                    description: "the stub server at \(ExternalStubServer.environmentVariable)=\(url.absoluteString) "
                        + "did not reset: \(error)")
            }
            try await run(with: client, reportingAt: location, performing: function)
        }

        /// Runs `function` with `client`'s server as ``AnyStubServer/current``, then reports what the teardown checks
        /// find. If `function` throws, attaches the journal, runs `cleanUp` and throws on.
        private func run(
            with client: StubServerClient, reportingAt location: SourceLocation,
            cleanUpOnThrow cleanUp: () async -> Void = {},
            performing function: @Sendable () async throws -> Void
        ) async throws {
            let server = AnyStubServer(client)
            do {
                try await AnyStubServer.$current.withValue(server) {
                    try await function()
                }
            } catch {
                _ = await JournalAttachment.recordInSwiftTesting(external: server, at: .testing(location))
                await cleanUp()
                throw error
            }
            let checks = TeardownChecks(
                failOnUnmatchedRequests: failOnUnmatchedRequests, failOnUnusedStubs: failOnUnusedStubs)
            for message in await checks.failures(server) {
                await reportFailure(message, at: .testing(location), server: server)
            }
        }

        /// Runs `function` with a client to an isolated server of the external server at `url` (its own stubs,
        /// journal and scenarios) as ``AnyStubServer/current``, deleted after the test: tests need not take turns.
        /// - Parameter name: the test's name, which the server lists it by.
        func withIsolatedServer(
            of url: URL, name: String, reportingAt location: SourceLocation,
            performing function: @Sendable () async throws -> Void
        ) async throws {
            let shared = StubServerClient(baseURL: url, headers: external.adminHeaders)
            let client: StubServerClient
            do {
                client = try await shared.createIsolatedServer(
                    name: String(decoding: name.utf8.prefix(200), as: UTF8.self))
            } catch {
                throw ExternalStubServerError(
                    description: "the stub server at \(ExternalStubServer.environmentVariable)=\(url.absoluteString) "
                        + "did not start an isolated server (\(ExternalStubServer.isolateVariable)=1): \(error)")
            }
            try await run(
                with: client, reportingAt: location, cleanUpOnThrow: { try? await shared.deleteIsolatedServer(client) },
                performing: function)
            do {
                try await shared.deleteIsolatedServer(client)
            } catch {
                Issue.record(
                    Comment(rawValue: "the isolated server \(client.baseURL.absoluteString) was not deleted: \(error)"),
                    sourceLocation: location)
            }
        }

        /// Whether the running task's test already holds the external server.
        @TaskLocal static var holdsExternalTurn = false

        /// Tests against an external server take turns: they share its stubs and journal.
        static let externalTurns = TurnGate()
    }

    /// One holder at a time, the others waiting in arrival order (an async mutex).
    actor TurnGate {
        private var held = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        /// Waits until no one else holds the gate, then holds it.
        func enter() async {
            guard held else {
                held = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        /// Hands the gate to the next waiter, or frees it.
        func leave() {
            if waiting.isEmpty { held = false } else { waiting.removeFirst().resume() }
        }
    }
#endif
