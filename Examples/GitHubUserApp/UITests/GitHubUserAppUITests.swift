// The UI-test target (an Xcode "UI Testing Bundle" target; not part of Package.swift). See README.md.
// Swift 6 language mode: XCUIApplication is main-actor isolated, so the tests are @MainActor and create the
// app inside the test (a stored `let app = XCUIApplication()` in a non-isolated XCTestCase does not compile).
import StubTesting
import XCTest

final class GitHubUserAppUITests: XCTestCase {
    override func setUpWithError() throws {
        continueAfterFailure = false
    }

    /// Starts a stub server for this test (stopped at its end, by StubTesting) and launches the app against it.
    /// Each parallel-testing simulator clone runs its own test runner, so its own server on its own port.
    @MainActor
    private func launchApp() throws -> (XCUIApplication, StubServer) {
        // Stubs/ is a folder reference copied into this UI-test bundle (project.yml), so this works on a device;
        // on a simulator or Mac a Stubs/ folder above this file is found too.
        let stubs = try StubsDirectory.locate(named: "Stubs", bundle: Bundle(for: Self.self))
        let server = try startStubServer(stubs: stubs)
        let app = XCUIApplication()
        app.launch(with: server)  // BASEURL=http://127.0.0.1:PORT
        return (app, server)
    }

    @MainActor
    func testShowsTheStubbedProfile() throws {
        let (app, server) = try launchApp()
        app.textFields["username"].tap()
        app.textFields["username"].typeText("shashikant86")
        app.buttons["Search"].tap()
        XCTAssertTrue(app.staticTexts["StubName"].waitForExistence(timeout: 10))
        XCTAssertTrue(app.staticTexts["StubLocation"].exists)
        XCTAssertRequested(server, .get("/users/shashikant86"), count: 1)
    }

    @MainActor
    func testAnUnknownUserIsNotFound() throws {
        let (app, server) = try launchApp()
        app.textFields["username"].tap()
        app.textFields["username"].typeText("nobody-here")
        app.buttons["Search"].tap()
        XCTAssertTrue(app.staticTexts["No user nobody-here"].waitForExistence(timeout: 10))
        XCTAssertRequested(server, .get("/users/nobody-here"), count: 1)
    }
}
