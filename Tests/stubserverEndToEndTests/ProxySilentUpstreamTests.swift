// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    #if os(Linux)
        import Foundation
        import StubClient
        import StubKit
        import StubTestSupport
        import XCTest

        /// A request waiting on an upstream that accepts the connection and never answers costs the server
        /// no CPU (URLSession on Linux spun a core for it), and still ends in a 504 at the proxy timeout.
        /// CPU is read from `/proc/PID/stat` (user + system clock ticks) over a two-second window; the bound
        /// is generous (a quarter of one core), a spinning thread used all of one.
        final class ProxySilentUpstreamTests: XCTestCase {
            func testWaitingOnASilentUpstreamCostsNoCPU() async throws {
                let silent = try LoopbackListener()  // listens, never accepts, never answers
                let temp = try TemporaryStubs()
                try temp.write("mappings/hello.json", simpleMapping("/hello", body: "hello"))
                let server = try StubServerProcess.launch(
                    [
                        "--stubs", "stubs", "--proxy-all", "http://127.0.0.1:\(silent.port)",
                        "--proxy-timeout", "3000"
                    ], currentDirectory: temp.root)
                addTeardownBlock { server.stop() }
                let waiting = Task {
                    try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("waits"))
                }
                let other = Task {
                    try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("waits/too"))
                }
                let hello = try await LoopbackClient.send("GET", server.baseURL.appendingPathComponent("hello"))
                XCTAssertEqual(hello.text, "hello")
                // Until both forwarded requests are on their way: sent, and unread in the silent upstream's sockets.
                let forwarded = await eventually(timeout: .seconds(60), every: .milliseconds(100)) {
                    KernelSockets.accepted(onPort: silent.port).filter { $0.receiveQueue > 0 }.count >= 2
                }
                XCTAssertTrue(forwarded, "the two requests never reached the upstream")

                let before = try ProcessCPU.ticks(server.pid)
                try await Task.sleep(for: .seconds(2))  // the interval measured, not a wait for anything
                let used = try ProcessCPU.ticks(server.pid) - before
                let ticksPerSecond = ProcessCPU.ticksPerSecond
                XCTAssertLessThan(
                    used, ticksPerSecond / 2, "\(used) ticks in 2 s (\(ticksPerSecond)/s) while two requests wait")

                let timedOut = try await waiting.value
                XCTAssertEqual(timedOut.status, 504, timedOut.text)
                XCTAssertTrue(timedOut.text.contains("no answer within 3.0 seconds"), timedOut.text)
                let alsoTimedOut = try await other.value
                XCTAssertEqual(alsoTimedOut.status, 504, alsoTimedOut.text)
            }
        }
    #endif
#endif
