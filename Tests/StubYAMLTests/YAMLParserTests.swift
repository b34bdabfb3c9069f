import StubModel
import Testing

@testable import StubYAML

struct YAMLParserTests {
}
