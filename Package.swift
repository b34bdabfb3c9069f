// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "stubserver",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "StubHTTP", targets: ["StubHTTP"]),
        .library(name: "StubKit", targets: ["StubKit"]),
        .library(name: "StubTesting", targets: ["StubTesting"]),
        .executable(name: "stubserver", targets: ["stubserver"]),
    ],
    dependencies: [],
    targets: [
        // System calls Swift does not import (epoll, eventfd).
        .target(name: "CStubSystem"),
        // The HTTP/1.1 engine. Knows nothing of stubs.
        .target(name: "StubHTTP", dependencies: ["CStubSystem"]),
        // The stub domain: mappings, matching, responses, journal, admin API.
        .target(name: "StubKit", dependencies: ["StubHTTP"]),
        // XCTest and Swift Testing helpers.
        .target(name: "StubTesting", dependencies: ["StubKit"]),
        // The command line: parse → validate → run, testable without a process.
        .target(name: "StubServerCLI", dependencies: ["StubKit"]),
        .executableTarget(name: "stubserver", dependencies: ["StubServerCLI"]),
        // Benchmark server for the engine alone (see Benchmarks/bench-engine.sh).
        .executableTarget(name: "engine-bench", dependencies: ["StubHTTP"], path: "Benchmarks/engine-bench"),
        // Startup time of StubServer (see Benchmarks/bench-startup.sh).
        .executableTarget(name: "startup-bench", dependencies: ["StubKit"], path: "Benchmarks/startup"),
        .testTarget(name: "StubHTTPTests", dependencies: ["StubHTTP"]),
        .testTarget(name: "StubKitTests", dependencies: ["StubKit"]),
        .testTarget(name: "StubServerCLITests", dependencies: ["StubServerCLI"]),
        // Runs the built `stubserver` binary as a process: CLI behaviour end to end.
        .testTarget(name: "stubserverEndToEndTests", dependencies: ["stubserver", "StubKit", "StubTestSupport"]),
        .testTarget(name: "StubTestingTests", dependencies: ["StubTesting", "StubTestSupport"]),
        // Raw sockets for what HTTP clients will not do (malformed bytes, holding a port); tests only.
        .target(name: "StubTestSupport", path: "Tests/TestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
