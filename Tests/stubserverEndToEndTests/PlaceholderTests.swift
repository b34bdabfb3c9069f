import XCTest

final class PlaceholderEndToEndTests: XCTestCase {
    func testPlaceholder() {}
}
