import StubTestSupport
import Testing

@testable import StubKit
@testable import StubMatching

/// Darwin runs secondary threads (XCTest's and Swift Testing's too) on 512 KiB stacks, and a stack overflow
/// takes the whole test runner down. These run on such a thread, in the debug build `swift test` makes.
@Suite("Deeply nested JSON on a 512 KiB stack")
struct JSONDeepNestingTests {
    /// Objects and arrays alternating, `levels` deep: `{"a":[{"a":[ … 1 … ]}]}`.
    static func nested(levels: Int) -> String {
        var open = "", close = ""
        for level in 0..<levels {
            if level % 2 == 0 { open += #"{"a":"#; close = "}" + close } else { open += "["; close = "]" + close }
        }
        return open + "1" + close
    }

    @Test("A document at the depth limit parses, serializes, compares, matches and is released")
    func atTheLimit() {
        let text = Self.nested(levels: JSONParser.defaultMaximumDepth)
        let outcome: String = SmallStackThread.run {
            guard let value = try? JSONParser.parse(text) else { return "did not parse" }
            let copy = try? JSONParser.parse(value.serialized(.pretty))
            guard copy == value, value.serialized() == text else { return "did not round-trip" }
            guard JSONEquivalence.matches(value, value, ignoreArrayOrder: true, ignoreExtraElements: true),
                JSONEquivalence.distance(value, value, ignoreArrayOrder: false, ignoreExtraElements: false) == 0
            else { return "not equivalent to itself" }
            guard let path = try? JSONPathExpression("$..a"),
                path.evaluate(value).count == JSONParser.defaultMaximumDepth / 2
            else { return "JSONPath did not find every level" }
            return "ok"
        }
        #expect(outcome == "ok")
    }

    @Test(
        "Hostile nesting gets a clear error, not a crash",
        arguments: [
            String(repeating: "[", count: 1_000_000),
            String(repeating: #"{"a":"#, count: 200_000),
            nested(levels: JSONParser.defaultMaximumDepth + 1)
        ])
    func hostile(_ text: String) {
        let message: String = SmallStackThread.run {
            do throws(JSONParseError) {
                _ = try JSONParser.parse(text)
                return "parsed"
            } catch {
                return error.message
            }
        }
        #expect(message == "nesting deeper than 128 levels of arrays and objects")
    }
}
