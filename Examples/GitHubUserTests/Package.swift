// swift-tools-version:6.1
// An app-side package tested against stubserver: a tiny GitHub user client and its tests, run against
// the repository's Stubs/ with StubTesting, in XCTest and in Swift Testing: in-process, or against a server CI
// started. From the repository's root: `stubserver --stubs Stubs --port 8080 &`, then
// `STUBSERVER_URL=http://127.0.0.1:8080 swift test --package-path Examples/GitHubUserTests`.
import PackageDescription

let package = Package(
    name: "GitHubUserTests",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "GitHubUserClient", targets: ["GitHubUserClient"])
    ],
    dependencies: [
        // In your project: .package(url: "https://github.com/YOUR-ORG/stubserver.git", from: "0.1.0")
        .package(name: "stubserver", path: "../..")
    ],
    targets: [
        .target(name: "GitHubUserClient"),
        // Declares HTTPMethod, HTTPHeaders, … as Alamofire/NIO/Vapor do; the tests import it next to StubTesting.
        .target(name: "HTTPTypesStandIn"),
        .testTarget(
            name: "GitHubUserClientTests",
            dependencies: ["GitHubUserClient", "HTTPTypesStandIn", .product(name: "StubTesting", package: "stubserver")]
        )
    ],
    swiftLanguageModes: [.v6]
)
