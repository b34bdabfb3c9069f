import GitHubUserClient
import StubTesting
import XCTest

/// The classic GitHub-user UI test logic, without Vapor: the client is pointed at a stub server
/// through the same `BASEURL` variable a UI test puts in `XCUIApplication.launchEnvironment`.
final class GitHubUserXCTests: XCTestCase {
    private var server: StubServer!
    private var client: GitHubClient!

    override func setUpWithError() throws {
        // <repo>/Stubs, found from this file; stopped after each test; a request no stub answers fails the test.
        server = try startStubServer(stubs: StubsDirectory.locate(from: #filePath), failOnUnmatchedRequests: true)
        // What the app does at launch with the UI test's launchEnvironment.
        client = GitHubClient(environment: server.launchEnvironment())
    }

    func testShowsTheStubbedProfile() async throws {
        let user = try await client.user("shashikant86")

        XCTAssertEqual(user.name, "StubName")
        XCTAssertEqual(user.location, "StubLocation")
        XCTAssertEqual(user.followers, 1000)
        XCTAssertEqual(user.publicRepos, 100)
        XCTAssertRequested(server, .get("/users/shashikant86").withHeader("Accept", .contains("github")), count: 1)
    }

    func testUnknownUserIsNotFound() async throws {
        do {
            _ = try await client.user("nobody-here")
            XCTFail("expected notFound")
        } catch let error as GitHubUserError {
            XCTAssertEqual(error, .notFound(login: "nobody-here"))
        }
    }

    func testServerErrorFromARuntimeStub() async throws {
        server.stub(.get("/users/octocat"), .status(503), priority: 1)
        do {
            _ = try await client.user("octocat")
            XCTFail("expected unexpectedStatus")
        } catch let error as GitHubUserError {
            XCTAssertEqual(error, .unexpectedStatus(503))
        }
    }
}
