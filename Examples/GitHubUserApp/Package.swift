// swift-tools-version:6.1
// The non-UI half of an iOS app tested with stubserver: its configuration (BASEURL in debug builds only) and
// its screen model, with tests that run anywhere (`swift test` here, on Linux too). The SwiftUI app (App/)
// and its XCUITest target (UITests/) are Xcode targets; README.md says how to set them up.
import PackageDescription

let package = Package(
    name: "GitHubUserApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "GitHubUserFeature", targets: ["GitHubUserFeature"])
    ],
    dependencies: [
        // In your project: .package(url: "https://github.com/YOUR-ORG/stubserver.git", from: "0.1.0")
        .package(name: "stubserver", path: "../.."),
        .package(name: "GitHubUserTests", path: "../GitHubUserTests")
    ],
    targets: [
        .target(
            name: "GitHubUserFeature",
            dependencies: [.product(name: "GitHubUserClient", package: "GitHubUserTests")]
        ),
        .testTarget(
            name: "GitHubUserFeatureTests",
            dependencies: ["GitHubUserFeature", .product(name: "StubTesting", package: "stubserver")]
        )
    ],
    swiftLanguageModes: [.v6]
)
