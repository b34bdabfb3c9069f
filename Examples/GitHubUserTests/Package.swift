// swift-tools-version:6.0
// An app-side package tested against stubserver: a tiny GitHub user client and its tests, run against
// the repository's Stubs/ with StubTesting, in XCTest and in Swift Testing.
import PackageDescription

let package = Package(
    name: "GitHubUserTests",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "GitHubUserClient", targets: ["GitHubUserClient"]),
    ],
    dependencies: [
        // In your project: .package(url: "https://github.com/<owner>/stubserver", from: "1.0.0")
        .package(name: "stubserver", path: "../.."),
    ],
    targets: [
        .target(name: "GitHubUserClient"),
        .testTarget(
            name: "GitHubUserClientTests",
            dependencies: ["GitHubUserClient", .product(name: "StubTesting", package: "stubserver")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
