import XCTest

@testable import StubKit

final class KitSmokeTests: XCTestCase { func testNothing() {} }
