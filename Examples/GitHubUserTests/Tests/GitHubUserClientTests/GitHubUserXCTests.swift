import GitHubUserClient
import StubTesting
import XCTest

/// The classic GitHub-user UI test logic, without Vapor: the client is pointed at a stub server
/// through the same `BASEURL` variable a UI test puts in `XCUIApplication.launchEnvironment`.
/// The server is in-process, or the one CI started when `STUBSERVER_URL` is set: these tests run in both.
final class GitHubUserXCTests: XCTestCase {
    private var server: AnyStubServer!
    private var client: GitHubClient!

    override func setUp() async throws {
        // <repo>/Stubs, found from this file; stopped (or reset) after each test; a request no stub answers fails it.
        server = try setUpStubServer(stubs: StubsDirectory.locate(from: #filePath), failOnUnmatchedRequests: true)
        // What the app does at launch with the UI test's launchEnvironment.
        client = GitHubClient(environment: try await server.launchEnvironment())
    }

    func testShowsTheStubbedProfile() async throws {
        let user = try await client.user("shashikant86")

        XCTAssertEqual(user.name, "StubName")
        XCTAssertEqual(user.location, "StubLocation")
        XCTAssertEqual(user.followers, 1000)
        XCTAssertEqual(user.publicRepos, 100)
        await XCTAssertRequested(
            server, .get("/users/shashikant86").withHeader("Accept", .contains("github")), count: 1)
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
        try await server.stub(.get("/users/octocat"), .status(503), priority: 1)
        do {
            _ = try await client.user("octocat")
            XCTFail("expected unexpectedStatus")
        } catch let error as GitHubUserError {
            XCTAssertEqual(error, .unexpectedStatus(503))
        }
    }
}
