// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubTesting

    /// A launched `stubserver` (StubKit's launcher) playing the server CI starts and names in
    /// `STUBSERVER_URL`, with a stubs folder holding a scenario, so a reset is visible in the scenario too.
    final class ExternalServer: Sendable {
        let process: StubClient.StubServerProcess
        private let stubs: TemporaryStubs

        init() throws {
            stubs = try TemporaryStubs()
            try stubs.write("mappings/hello.json", simpleMapping("/hello", body: "Hello, stubserver", name: "hello"))
            try stubs.write(
                "mappings/cart-empty.json",
                """
                {"scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "full",
                 "request": {"method": "POST", "urlPath": "/cart"}, "response": {"status": 201}}
                """)
            try stubs.write(
                "mappings/cart-full.json",
                """
                {"scenarioName": "cart", "requiredScenarioState": "full",
                 "request": {"method": "POST", "urlPath": "/cart"}, "response": {"status": 409}}
                """)
            process = try StubClient.StubServerProcess.launch(executable: Paths.stubserverBinary(), stubs: stubs.stubs)
        }

        /// Launches one off Swift's cooperative pool (launching waits for the process's first line).
        static func launch() async throws -> ExternalServer {
            try await offPool { try ExternalServer() }
        }

        /// Stops it off Swift's cooperative pool (stopping waits for the process to exit).
        func stop() async throws -> StubServerProcess.Termination {
            await offPool { self.process.stop() }
        }

        /// What a test's `STUBSERVER_URL` would say.
        var external: ExternalStubServer { .url(process.baseURL) }

        func url(_ path: String) -> URL { process.baseURL.appendingPathComponent(path) }
    }
#endif
