#if canImport(XCTest) && (os(iOS) || os(tvOS) || os(macOS) || os(visionOS))
    import XCTest

    @MainActor
    extension XCUIApplication {
        /// Points the app at `server`: sets `launchEnvironment[key]` to its base URL, and for each virtual host
        /// `STUBSERVER_HOST_API_EXAMPLE_COM` (`StubServer.launchEnvironmentKey(forHost:)`) to its own
        /// (other variables are kept).
        ///
        /// ```swift
        /// let app = XCUIApplication()
        /// app.useStubServer(server)            // BASEURL=http://127.0.0.1:53127
        /// app.launch()
        /// ```
        public func useStubServer(_ server: StubServer, key: String = "BASEURL") {
            launchEnvironment.merge(server.launchEnvironment(key: key)) { _, new in new }
        }

        /// Points the app at `server` (see ``useStubServer(_:key:)``) and launches it.
        public func launch(with server: StubServer, key: String = "BASEURL") {
            useStubServer(server, key: key)
            launch()
        }

        /// Points the app at `server`, in this process or outside it (`STUBSERVER_URL`): its base URL under `key`,
        /// and each virtual host's (``AnyStubServer/launchEnvironment(key:)``).
        ///
        /// ```swift
        /// let server = try setUpStubServer(stubs: stubs)
        /// let app = XCUIApplication()
        /// try await app.useStubServer(server)
        /// app.launch()
        /// ```
        /// - Throws: a `StubServerClientError` when a server outside this process does not say its virtual hosts.
        public func useStubServer(_ server: AnyStubServer, key: String = "BASEURL") async throws {
            let environment = try await server.launchEnvironment(key: key)
            launchEnvironment.merge(environment) { _, new in new }
        }

        /// Points the app at `server` (see ``useStubServer(_:key:)-(AnyStubServer,_)``) and launches it.
        public func launch(with server: AnyStubServer, key: String = "BASEURL") async throws {
            try await useStubServer(server, key: key)
            launch()
        }
    }
#endif
