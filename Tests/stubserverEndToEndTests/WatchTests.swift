// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import StubClient
    import StubKit
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
    import XCTest

    /// `--watch`: edits to the stubs directory are served without a restart; a bad edit keeps the last good stubs.
    final class WatchTests: XCTestCase {
        func testEditsAreReloadedAndABadEditKeepsTheLastGoodStubs() async throws {
            let temp = try TemporaryStubs()
            try temp.write("mappings/watched.json", simpleMapping("/watched", body: "v1"))
            let server = try StubServerProcess.launch(
                ["--stubs", "stubs", "--port", "0", "--watch"], currentDirectory: temp.root)
            addTeardownBlock { server.stop() }
            let initial = try await server.body("watched")
            XCTAssertEqual(initial, "v1")

            // Same size, so only the modification time tells the edit apart.
            try temp.write("mappings/watched.json", simpleMapping("/watched", body: "v2"))
            let reloaded = try await server.waitForBody("watched", "v2")
            XCTAssertTrue(reloaded, "v2 not served; stderr:\n\(server.standardError)")
            XCTAssertTrue(
                server.waitForStandardError(containing: "stubserver: reloaded 1 stub from stubs\n"),
                server.standardError)

            // A broken file: the error is logged, the last good stubs keep answering.
            try temp.write("mappings/watched.json", #"{"request": {"urlPath": "/watched"}, "response": {"body": "v3"#)
            XCTAssertTrue(
                server.waitForStandardError(containing: "; keeping the last good stubs\n"), server.standardError)
            XCTAssertTrue(
                server.standardError.contains("stubserver: error: stubs/mappings/watched.json:1:"), server.standardError
            )
            let kept = try await server.body("watched")
            XCTAssertEqual(kept, "v2")

            // Fixed again, and a new file added at the same time.
            try temp.write("mappings/watched.json", simpleMapping("/watched", body: "v3"))
            try temp.write("mappings/added/new.json", simpleMapping("/added", body: "new"))
            let fixed = try await server.waitForBody("watched", "v3")
            XCTAssertTrue(fixed, "v3 not served; stderr:\n\(server.standardError)")
            let added = try await server.waitForBody("added", "new", timeout: .seconds(5))
            XCTAssertTrue(added, server.standardError)

            XCTAssertEqual(server.stop(), .exited(0))
        }
    }
#endif
