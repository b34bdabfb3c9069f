// The end-to-end tests run the stubserver binary and other tools as child processes, which only macOS and
// Linux allow (iOS, tvOS, watchOS and visionOS processes cannot spawn): the whole target is empty there.
#if os(macOS) || os(Linux)
    import Foundation
    import StubClient
    import StubKit
    import XCTest

    /// The installation line a user copies names the version the binary reports.
    final class ReadmeVersionTests: XCTestCase {
        func testEveryInstallLineNamesTheVersionTheBinaryReports() throws {
            let run = try StubServerProcess.run(["--version"])
            let version = run.stdout.replacingOccurrences(of: "stubserver ", with: "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertNotNil(version.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression), run.stdout)

            let files = ["README.md", "Examples/GitHubUserTests/Package.swift", "Examples/GitHubUserApp/Package.swift"]
            var found = 0
            for file in files {
                let text = try String(contentsOf: Paths.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
                let regex = try NSRegularExpression(pattern: #"\.package\(url: "[^"]+", from: "([^"]+)"\)"#)
                for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    guard let range = Range(match.range(at: 1), in: text) else { continue }
                    XCTAssertEqual(String(text[range]), version, "\(file): the .package(url:from:) line")
                    found += 1
                }
            }
            XCTAssertGreaterThanOrEqual(found, 3, "the README's installation and getting-started lines, and Examples/")
        }
    }
#endif
