import XCTest

/// An XCTestCase that can capture the failures a block records instead of failing the test, to test
/// what the assertion helpers report. (`XCTExpectFailure` does this on Apple platforms; swift-corelibs-xctest
/// has no equivalent, so on Linux `recordFailure` is intercepted.)
class FailureCapturingTestCase: XCTestCase {
    private var capturing = false
    private var captured: [(message: String, line: Int)] = []

    /// Runs `body` and returns the failures it recorded (message and line), which do not fail the test.
    func capturingFailures(_ body: () -> Void) -> [(message: String, line: Int)] {
        #if canImport(Darwin)
            let box = CapturedIssues()
            let options = XCTExpectedFailure.Options()
            options.isStrict = false
            options.issueMatcher = { issue in
                box.append(issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0)
                return true
            }
            XCTExpectFailure("captured by the test", options: options) { body() }
            return box.items
        #else
            capturing = true
            captured = []
            body()
            capturing = false
            return captured
        #endif
    }

    #if !canImport(Darwin)
        override func recordFailure(
            withDescription description: String, inFile filePath: String,
            atLine lineNumber: Int, expected: Bool
        ) {
            if capturing {
                captured.append((description, lineNumber))
            } else {
                super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
        }
    #endif
}

#if canImport(Darwin)
    private final class CapturedIssues: @unchecked Sendable {  // appended to on the test's thread only
        var items: [(message: String, line: Int)] = []
        func append(_ message: String, _ line: Int) { items.append((message, line)) }
    }
#endif
