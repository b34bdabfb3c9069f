import StubServerTestSupport
import XCTest

@testable import StubKit

/// `stop()` and `shutdown()` release the same things: after either, the closure, admin and proxy
/// workers take no more jobs.
final class StubServerReleaseTests: XCTestCase {
    /// Whether each pool still accepts a job, by name.
    private func accepting(_ server: StubServer) -> [String: Bool] {
        [
            "closure": server.closureWorkers.submit {},
            "admin": server.adminWorkers.submit {},
            "proxy": server.proxy.workers.submit {}
        ]
    }

    func testStopReleasesEveryWorkerPool() throws {
        let server = try startQuietServer()
        XCTAssertEqual(accepting(server), ["closure": true, "admin": true, "proxy": true])
        server.stop()
        XCTAssertEqual(accepting(server), ["closure": false, "admin": false, "proxy": false])
    }

    func testShutdownReleasesWhatStopReleases() async throws {
        let server = try startQuietServer()
        XCTAssertEqual(accepting(server), ["closure": true, "admin": true, "proxy": true])
        await server.shutdown()
        XCTAssertFalse(server.isRunning)
        XCTAssertEqual(accepting(server), ["closure": false, "admin": false, "proxy": false])
    }
}
