import XCTest

@testable import StubHTTP

final class SmokeTests: XCTestCase { func testMethod() { XCTAssertEqual(HTTPMethod.get.rawValue, "GET") } }
