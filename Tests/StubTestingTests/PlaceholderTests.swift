import XCTest

final class PlaceholderStubTestingTests: XCTestCase {
    func testPlaceholder() {}
}
