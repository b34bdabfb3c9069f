// Child processes start with posix_spawn on Linux (StubProcess.SpawnedProcess), not Foundation's Process, whose
// run() crashed in CI (SIGSEGV in memcpy) once the test process had about 1,350 descriptors open.
#if os(Linux)
    import Foundation
    import Glibc
    import StubClient
    import StubTestSupport
    import XCTest

    final class SpawnTests: XCTestCase {
        /// 1,600 descriptors open here, none close-on-exec: tools and the server still start, and inherit none.
        func testChildrenStartBesideThousandsOfOpenDescriptorsAndInheritNone() throws {
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            try XCTSkipIf(limit.rlim_cur < 2_000, "needs 2,000 open files; the limit is \(limit.rlim_cur)")
            var opened: [Int32] = []
            defer { opened.forEach { close($0) } }
            for _ in 0..<1_600 {
                let fd = open("/dev/null", O_RDONLY)
                XCTAssertGreaterThanOrEqual(fd, 0)
                opened.append(fd)
            }
            for _ in 0..<20 {
                let listing = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "ls /proc/self/fd"])
                XCTAssertTrue(listing.succeeded, listing.standardError)
                // ls's own: stdin, stdout, stderr and the directory it lists.
                let descriptors = listing.standardOutput.split(separator: "\n").compactMap { Int($0) }
                XCTAssertEqual(descriptors, [0, 1, 2, 3])
            }
            let server = try StubServerProcess.launch(["--stubs", Paths.demoStubs.path])
            defer { server.stop() }
            let serverDescriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/fd")
            XCTAssertLessThan(serverDescriptors.count, 100, "the server inherited this process's descriptors")
            XCTAssertEqual(server.stop(), .exited(0))
        }
    }
#endif
