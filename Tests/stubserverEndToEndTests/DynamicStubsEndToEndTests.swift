import Foundation
import StubKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// The `stubserver` binary serves scenarios, `metadata.stubserver` sequences, faults and delays from
/// stub files, with `--global-delay` and `--bandwidth` from the command line.
final class DynamicStubsEndToEndTests: XCTestCase {
    private func fetch(_ method: String, _ url: URL) async throws -> ClientResponse {
        try await URLSessionClient.send(method, url)
    }

    func testScenariosSequencesFaultsAndGlobalDelayFromFiles() async throws {
        let temp = try TemporaryStubs()
        try temp.write("mappings/login.json", #"""
            {"mappings": [
              {"scenarioName": "Login", "requiredScenarioState": "Started", "newScenarioState": "In",
               "request": {"method": "POST", "url": "/login"}, "response": {"status": 204}},
              {"scenarioName": "Login", "requiredScenarioState": "In",
               "request": {"method": "GET", "url": "/me"}, "response": {"status": 200, "body": "jane"}}
            ]}
            """#)
        try temp.write("mappings/flaky.json", #"""
            {"request": {"url": "/flaky"}, "response": {"status": 503},
             "metadata": {"stubserver": {"then": [{"status": 200, "body": "ok"}]}}}
            """#)
        try temp.write("mappings/reset.json", #"{"request": {"url": "/reset"}, "response": {"fault": "CONNECTION_RESET_BY_PEER"}}"#)
        let server = try StubServerProcess.launch(["--stubs", "stubs", "--port", "0", "--global-delay", "300", "--bandwidth", "1000000"],
                                           currentDirectory: temp.root)
        addTeardownBlock { server.stop() }
        let baseURL = server.baseURL
        XCTAssertFalse(server.standardError.contains("not supported"), server.standardError)
        let me = try await fetch("GET", baseURL.appendingPathComponent("me"))
        XCTAssertEqual(me.status, 404)

        let started = Date()
        let r1 = try await fetch("POST", baseURL.appendingPathComponent("login"))
        // --global-delay delays stub responses: a lower bound only.
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3)
        XCTAssertEqual(r1.status, 204, r1.text)
        let r2 = try await fetch("GET", baseURL.appendingPathComponent("me"))
        XCTAssertEqual(r2.text, "jane", r2.text)
        let scenarios = try await URLSessionClient.send("GET", baseURL.appendingPathComponent("__admin/scenarios"))
        XCTAssertTrue(scenarios.text.contains(#""state" : "In""#) || scenarios.text.contains(#""state": "In""#), scenarios.text)

        let r3 = try await fetch("GET", baseURL.appendingPathComponent("flaky"))
        XCTAssertEqual(r3.status, 503, r3.text)
        let r4 = try await fetch("GET", baseURL.appendingPathComponent("flaky"))
        XCTAssertEqual(r4.text, "ok", r4.text)

        if CurlClient.isAvailable {
            XCTAssertThrowsError(try CurlClient.send([], baseURL.appendingPathComponent("reset"))) { error in
                XCTAssertTrue("\(error)".contains("status 56"), "\(error)")
            }
        }
        let r5 = try await fetch("POST", baseURL.appendingPathComponent("__admin/reset"))
        XCTAssertEqual(r5.status, 200, r5.text)
        let r6 = try await fetch("GET", baseURL.appendingPathComponent("me"))
        XCTAssertEqual(r6.status, 404, r6.text)
        let r7 = try await fetch("GET", baseURL.appendingPathComponent("flaky"))
        XCTAssertEqual(r7.status, 503, r7.text)
    }
}
