// swift-tools-version:6.1
// Swift 6.1 (Xcode 16.3) is the oldest supported toolchain: see README, "Requirements".
import PackageDescription

let package = Package(
    name: "stubserver",
    // `Duration` and `Clock` need these (macOS 13, iOS 16, tvOS 16, watchOS 9, visionOS 1).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "StubHTTP", targets: ["StubHTTP"]),
        .library(name: "StubKit", targets: ["StubKit"]),
        .library(name: "StubClient", targets: ["StubClient"]),
        .library(name: "StubTesting", targets: ["StubTesting"]),
        .executable(name: "stubserver", targets: ["stubserver"])
    ],
    // Off unless asked for (Xcode does not evaluate package traits): `swift build -c release --product stubserver
    // --traits Slim` builds the executable on FoundationEssentials alone, without URLSession, Process, curl or ICU,
    // for the Docker image. It takes proxying and recording out of StubKit, so it is for that executable only, never
    // for a package depending on this one (see docker/README.md). The executable does not use StubClient either way.
    traits: [
        .trait(
            name: "Slim",
            description: "The stubserver executable on FoundationEssentials only: no proxying or recording")
    ],
    dependencies: [],
    targets: [
        // System calls Swift does not import (epoll, eventfd), and libcurl, libssl and libcrypto loaded at run time
        // (dlopen) on Linux, left out of the Slim build, which does not proxy, serve HTTPS or make certificates (and is
        // linked static, where dlopen has no place).
        .target(
            name: "CStubSystem",
            cSettings: [
                .define("CSTUB_NO_CURL", .when(traits: ["Slim"])), .define("CSTUB_NO_OPENSSL", .when(traits: ["Slim"]))
            ]),
        // The HTTP/1.1 engine. Knows nothing of stubs.
        .target(name: "StubHTTP", dependencies: ["CStubSystem"]),
        // A Java-compatible regular-expression engine with a step budget (WireMock's patterns). Depends on nothing.
        .target(name: "StubRegex"),
        // An XML 1.0 parser with namespaces, XML comparison and XPath 1.0 (equalToXml, matchesXPath). Depends on
        // StubRegex only (placeholders with regular expressions).
        .target(name: "StubXML", dependencies: ["StubRegex"]),
        // Certificates for HTTPS: a local certificate authority on disk, server leaves it signs, the user's PEM and
        // PKCS#12 files. DER and PEM are ours; keys, signatures and digests are the OS's (libcrypto on Linux,
        // CryptoKit and Security on Apple platforms).
        .target(name: "StubCertificates", dependencies: ["CStubSystem", "StubHTTP"]),
        // The stub domain, one target per layer, each using only those above it (ARCHITECTURE.md, "Targets").
        // What users write, as values: JSON, stub mappings, request patterns, matchers, responses, the Swift DSL.
        .target(name: "StubModel", dependencies: ["StubHTTP", "StubXML"]),
        // A YAML 1.2 parser (core schema) into StubModel's JSONValue, for OpenAPI documents. Depends on StubModel only.
        .target(name: "StubYAML", dependencies: ["StubModel"]),
        // Which stub answers a request: compiled patterns, the route table, JSONPath, near-miss reports.
        .target(name: "StubMatching", dependencies: ["StubHTTP", "StubRegex", "StubXML", "StubModel"]),
        // Response templates: parsed once, rendered per request within step and byte limits.
        .target(
            name: "StubTemplating", dependencies: ["StubHTTP", "StubRegex", "StubXML", "StubModel", "StubMatching"]),
        // Stubs from files and back: the stubs directory, WireMock's JSON in and out, body files.
        .target(
            name: "StubLoading",
            dependencies: ["StubHTTP", "StubRegex", "StubXML", "StubModel", "StubMatching", "StubTemplating"]),
        // OpenAPI 3.0 and 3.1 documents: operations, stubs made from them, requests and stubs checked against them.
        .target(
            name: "StubOpenAPI", dependencies: ["StubHTTP", "StubModel", "StubMatching", "StubLoading", "StubYAML"]),
        // Forwarding to upstreams (URLSession, libcurl) and recording their answers as stubs; HAR import. The Slim
        // trait leaves the forwarding and recording out.
        .target(
            name: "StubProxy", dependencies: ["CStubSystem", "StubHTTP", "StubModel", "StubMatching", "StubLoading"]),
        // The server: StubServer, the request handler, the current stubs, the journal, the admin API, closure stubs,
        // HTTPS with StubCertificates' certificates. Re-exports the targets above, so `import StubKit` is the whole
        // stub domain.
        .target(
            name: "StubKit",
            dependencies: [
                "StubHTTP", "StubModel", "StubMatching", "StubTemplating", "StubLoading", "StubProxy",
                "StubCertificates", "StubOpenAPI"
            ]),
        // A server elsewhere (the CLI, a container) driven through its admin API, and the CLI as a child process.
        // URLSession and Process: its own target, so the executable (and the Slim image) does not link it.
        // Child processes (posix_spawn on Linux), for StubClient's StubServerProcess and the tests' tools.
        .target(name: "StubProcess", dependencies: ["CStubSystem"]),
        .target(name: "StubClient", dependencies: ["StubKit", "StubHTTP", "StubProcess"]),
        // A WebSocket client for test code (StubWebSocketClient) on the engine's frame parser and handshake: the same
        // on Linux and Apple platforms, where URLSessionWebSocketTask needs a libcurl with WebSockets on Linux.
        .target(name: "StubWebSockets", dependencies: ["StubHTTP"]),
        // XCTest and Swift Testing helpers. Re-export StubKit, StubClient and StubWebSockets.
        .target(name: "StubTesting", dependencies: ["StubKit", "StubClient", "StubWebSockets"]),
        // The command line: parse → validate → run, testable without a process.
        .target(
            name: "StubServerCLI",
            dependencies: [
                "StubKit", "StubHTTP", "StubCertificates",
                .target(name: "StubProcess", condition: .when(platforms: [.macOS]))
            ]),
        .executableTarget(name: "stubserver", dependencies: ["StubServerCLI"]),
        // Benchmark server for the engine alone (see Benchmarks/bench-engine.sh).
        .executableTarget(name: "engine-bench", dependencies: ["StubHTTP"], path: "Benchmarks/engine-bench"),
        // Startup time of StubServer (see Benchmarks/bench-startup.sh).
        .executableTarget(name: "startup-bench", dependencies: ["StubKit"], path: "Benchmarks/startup"),
        // In-process server with static and closure stubs (see Benchmarks/bench-dynamic.sh).
        .executableTarget(name: "dynamic-bench", dependencies: ["StubKit"], path: "Benchmarks/dynamic-bench"),
        // StubYAML's parse time on a file (see Benchmarks/bench-yaml.sh).
        .executableTarget(name: "yaml-bench", dependencies: ["StubYAML", "StubModel"], path: "Benchmarks/yaml-bench"),
        .testTarget(name: "StubHTTPTests", dependencies: ["StubHTTP", "StubTestSupport", "StubWebSockets"]),
        .testTarget(
            name: "StubKitTests",
            dependencies: [
                "StubKit", "StubMatching", "StubTemplating", "StubLoading", "StubProxy", "StubHTTP", "StubRegex",
                "StubCertificates", "StubTestSupport", "StubServerTestSupport"
            ]),
        .testTarget(name: "StubCertificatesTests", dependencies: ["StubCertificates", "StubTestSupport"]),
        .testTarget(name: "StubXMLTests", dependencies: ["StubXML", "StubTestSupport"]),
        .testTarget(
            name: "StubOpenAPITests", dependencies: ["StubOpenAPI", "StubModel", "StubHTTP", "StubTestSupport"]),
        .testTarget(name: "StubYAMLTests", dependencies: ["StubYAML", "StubModel", "StubTestSupport"]),
        .testTarget(name: "StubServerCLITests", dependencies: ["StubServerCLI", "StubTestSupport"]),
        // Runs the built `stubserver` binary as a process: CLI behaviour end to end.
        .testTarget(
            name: "stubserverEndToEndTests",
            dependencies: ["stubserver", "StubKit", "StubClient", "StubTesting", "StubTestSupport"]),
        // The StubTesting helpers themselves: the trait, XCTest integration, verification, failure reports, waiting.
        .testTarget(
            name: "StubTestingTests",
            dependencies: ["StubTesting", "StubClient", "StubHTTP", "StubTestSupport", "StubServerTestSupport"]),
        // The in-process server's features over real sockets: admin API, proxy, recording, scenarios, templating,
        // delays, faults, limits.
        .testTarget(
            name: "StubServerTests",
            dependencies: ["StubTesting", "StubKit", "StubHTTP", "StubTestSupport", "StubServerTestSupport"]),
        // The tests' loopback HTTP client (raw bytes or URLSession), raw sockets for what HTTP clients will not do
        // (malformed bytes, holding a port), child processes; tests only. Foundation only, so that StubHTTPTests,
        // which uses it, stays free of StubKit.
        .target(name: "StubTestSupport", dependencies: ["StubProcess"], path: "Tests/TestSupport"),
        // What the StubKit, StubTesting and StubServer tests share about a `StubServer` (starting a quiet one,
        // fetching from it, shutting it down, the demo stubs); tests only.
        .target(
            name: "StubServerTestSupport", dependencies: ["StubTesting", "StubTestSupport"],
            path: "Tests/ServerTestSupport")
    ],
    swiftLanguageModes: [.v6]
)
