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

    /// Starts a stub server for this test (stopped at its end, by StubTesting) and launches the app against it.
    /// Each parallel-testing simulator clone runs its own test runner, so its own server on its own port.
    /// - Parameter stub: runtime stubs to add before the app starts.
    @MainActor
    private func launchApp(stub: (StubServer) -> Void = { _ in }) throws -> (XCUIApplication, StubServer) {
        // Stubs/ is a folder reference copied into this UI-test bundle (project.yml), so this works on a device;
        // on a simulator or Mac a Stubs/ folder above this file is found too.
        let stubs = try StubsDirectory.locate(named: "Stubs", bundle: Bundle(for: Self.self))
        var configuration = StubServer.Configuration()
        configuration.virtualHosts = [Self.avatarsHost]
        let server = try startStubServer(stubs: stubs, configuration: configuration, failOnUnmatchedRequests: true)
        stub(server)
        let app = XCUIApplication()
        // BASEURL=http://127.0.0.1:PORT (the API) and
        // STUBSERVER_HOST_AVATARS_GITHUBUSERCONTENT_COM=http://127.0.0.1:OTHER_PORT (the avatar host)
        app.launch(with: server)
        return (app, server)
    }

    @MainActor
    private func search(_ login: String, in app: XCUIApplication) {
        app.textFields["username"].tap()
        app.textFields["username"].typeText(login)
        app.buttons["Search"].tap()
    }

    @MainActor
    func testShowsTheStubbedProfile() throws {
        let (app, server) = try launchApp()
        search("shashikant86", in: app)
        XCTAssertTrue(app.staticTexts["StubName"].waitForExistence(timeout: 10))
        XCTAssertTrue(app.staticTexts["StubLocation"].exists)
        XCTAssertRequested(server, .get("/users/shashikant86"), count: 1)
    }

    /// The avatar comes from the avatar host, the stats from the API's GraphQL endpoint.
    @MainActor
    func testShowsTheAvatarAndTheStatsFromTheirBackends() throws {
        let (app, server) = try launchApp()
        search("shashikant86", in: app)
        XCTAssertTrue(app.images["avatar"].waitForExistence(timeout: 10))
        XCTAssertTrue(app.staticTexts["12 starred · 3 organizations"].waitForExistence(timeout: 10))
        let avatarPort = try XCTUnwrap(server.port(forHost: Self.avatarsHost))
        XCTAssertRequested(
            server, .get("/u/2176586").withHost(.equalTo(Self.avatarsHost)).withPort(avatarPort), count: 1)
        XCTAssertRequested(
            server, .graphQL(operation: "UserStats", variables: ["login": "shashikant86"]).withPort(server.port),
            count: 1)
    }

    @MainActor
    func testAGraphQLErrorShowsAsAMessage() throws {
        let message = "Could not resolve to a User with the login of 'shashikant86'."
        let (app, _) = try launchApp { server in
            server.stub(
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
    func testTheLiveActivityShowsStubbedAndPushedEvents() throws {
        let (app, server) = try launchApp()
        search("shashikant86", in: app)
        XCTAssertTrue(app.staticTexts["starred apple/swift"].waitForExistence(timeout: 10))
        XCTAssertTrue(app.staticTexts["forked octocat/Hello-World"].waitForExistence(timeout: 10))
        // The app has read the stub's events, so its stream is open: push one more into it.
        let live = RequestPattern.get("/users/shashikant86/events/live")
        let streams = server.streams(matching: live)
        XCTAssertEqual(streams.count, 1)
        streams.send(
            ServerSentEvent(data: #"{"action": "pushed to", "repo": "octocat/hello"}"#, event: "push", id: "4"))
        XCTAssertTrue(app.staticTexts["pushed to octocat/hello"].waitForExistence(timeout: 10))
        XCTAssertTrue(app.staticTexts["Live"].exists)
        XCTAssertRequested(server, live.withHeader("Accept", "text/event-stream"), count: 1)
    }

    @MainActor
    func testAnUnknownUserIsNotFound() throws {
        let (app, server) = try launchApp()
        search("nobody-here", in: app)
        XCTAssertTrue(app.staticTexts["No user nobody-here"].waitForExistence(timeout: 10))
        XCTAssertRequested(server, .get("/users/nobody-here"), count: 1)
    }
}
