// The UI-test target (an Xcode "UI Testing Bundle" target; not part of Package.swift). See README.md.
// Swift 6 language mode: XCUIApplication is main-actor isolated, so the tests are @MainActor and create the
// app inside the test (a stored `let app = XCUIApplication()` in a non-isolated XCTestCase does not compile).
import StubTesting
import XCTest

final class GitHubUserAppUITests: XCTestCase {
    /// The avatar CDN the app calls besides the API (`AppConfiguration.avatarsHost` in the app's package): the
    /// server's virtual host, on a port of its own, serving `Stubs/mappings/avatars.githubusercontent.com/`.
    private static let avatarsHost = "avatars.githubusercontent.com"

    override func setUpWithError() throws {
        continueAfterFailure = false
    }

    /// Sets up a stub server for this test (in-process, stopped at its end by StubTesting; or the one CI started,
    /// `STUBSERVER_URL`, reset) and launches the app against it. Each parallel-testing simulator clone runs its own
    /// test runner, so its own in-process server on its own port.
    /// - Parameter stub: runtime stubs to add before the app starts.
    @MainActor
    private func launchApp(
        stub: (AnyStubServer) async throws -> Void = { _ in }
    ) async throws -> (XCUIApplication, AnyStubServer) {
        // Stubs/ is a folder reference copied into this UI-test bundle (project.yml), so this works on a device;
        // on a simulator or Mac a Stubs/ folder above this file is found too.
        let stubs = try StubsDirectory.locate(named: "Stubs", bundle: Bundle(for: Self.self))
        // The avatar host on a port of its own (a server CI started needs `--host-alias avatars.githubusercontent.com`).
        var configuration = StubServer.Configuration()
        configuration.virtualHosts = [Self.avatarsHost]
        let server = try setUpStubServer(stubs: stubs, configuration: configuration, failOnUnmatchedRequests: true)
        try await stub(server)
        let app = XCUIApplication()
        // BASEURL=http://127.0.0.1:PORT (the API) and
        // STUBSERVER_HOST_AVATARS_GITHUBUSERCONTENT_COM=http://127.0.0.1:OTHER_PORT (the avatar host)
        try await app.launch(with: server)
        return (app, server)
    }

    @MainActor
    private func search(_ login: String, in app: XCUIApplication) {
        app.textFields["username"].tap()
        app.textFields["username"].typeText(login)
        app.buttons["Search"].tap()
    }

    @MainActor
    func testShowsTheStubbedProfile() async throws {
        let (app, server) = try await launchApp()
        search("shashikant86", in: app)
        XCTAssertTrue(app.staticTexts["StubName"].waitForExistence(timeout: 10))
        XCTAssertTrue(app.staticTexts["StubLocation"].exists)
        await XCTAssertRequested(server, .get("/users/shashikant86"), count: 1)
    }

    /// The avatar comes from the avatar host, the stats from the API's GraphQL endpoint.
    @MainActor
    func testShowsTheAvatarAndTheStatsFromTheirBackends() async throws {
        let (app, server) = try await launchApp()
        search("shashikant86", in: app)
        XCTAssertTrue(app.images["avatar"].waitForExistence(timeout: 10))
        XCTAssertTrue(app.staticTexts["12 starred · 3 organizations"].waitForExistence(timeout: 10))
        let avatarPort = try XCTUnwrap(try await server.baseURL(for: Self.avatarsHost).port)
        await XCTAssertRequested(
            server, .get("/u/2176586").withHost(.equalTo(Self.avatarsHost)).withPort(avatarPort), count: 1)
        let apiPort = try XCTUnwrap(server.baseURL.port)
        await XCTAssertRequested(
            server, .graphQL(operation: "UserStats", variables: ["login": "shashikant86"]).withPort(apiPort), count: 1)
    }

    @MainActor
    func testAGraphQLErrorShowsAsAMessage() async throws {
        let message = "Could not resolve to a User with the login of 'shashikant86'."
        let (app, _) = try await launchApp { server in
            try await server.stub(
                .graphQL(operation: "UserStats", variables: ["login": "shashikant86"]),
                .graphQLErrors([.string(message)], data: .null), priority: 1)
        }
        search("shashikant86", in: app)
        XCTAssertTrue(app.staticTexts["Stats unavailable: \(message)"].waitForExistence(timeout: 10))
        XCTAssertTrue(app.staticTexts["StubName"].exists)
    }

    /// The live activity list: the stub file's events (`Stubs/mappings/live-activity.json`, whose stream stays
    /// open), then an event the test pushes into the app's open stream.
    @MainActor
    func testTheLiveActivityShowsStubbedAndPushedEvents() async throws {
        let (app, server) = try await launchApp()
        search("shashikant86", in: app)
        XCTAssertTrue(app.staticTexts["starred apple/swift"].waitForExistence(timeout: 10))
        XCTAssertTrue(app.staticTexts["forked octocat/Hello-World"].waitForExistence(timeout: 10))
        // The app has read the stub's events, so its stream is open: push one more into it.
        let live = RequestPattern.get("/users/shashikant86/events/live")
        let streams = try await server.send(
            [ServerSentEvent(data: #"{"action": "pushed to", "repo": "octocat/hello"}"#, event: "push", id: "4")],
            toStreamsMatching: live)
        XCTAssertEqual(streams, 1)
        XCTAssertTrue(app.staticTexts["pushed to octocat/hello"].waitForExistence(timeout: 10))
        XCTAssertTrue(app.staticTexts["Live"].exists)
        await XCTAssertRequested(server, live.withHeader("Accept", "text/event-stream"), count: 1)
    }

    @MainActor
    func testAnUnknownUserIsNotFound() async throws {
        let (app, server) = try await launchApp()
        search("nobody-here", in: app)
        XCTAssertTrue(app.staticTexts["No user nobody-here"].waitForExistence(timeout: 10))
        await XCTAssertRequested(server, .get("/users/nobody-here"), count: 1)
    }
}
