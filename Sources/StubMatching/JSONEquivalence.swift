import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// WireMock's `equalToJson` (JsonUnit underneath): semantic equality of two JSON documents.
///
/// Verified against WireMock 2.35.1:
/// - numbers compare numerically: `1`, `1.0` and `1e0` are equal; `"1"` (a string) is not `1`;
/// - `ignoreExtraElements` ignores extra object members at any depth and extra array items at the END
///   (`[1,2]` accepts `[1,2,3]` but not `[0,1,2]`); with `ignoreArrayOrder` too, the expected items need
///   only appear somewhere (`[1,2]` accepts `[3,2,1]`);
/// - `ignoreArrayOrder` alone needs the same items in any order, same count (`[1,2]` rejects `[2,1,1]`);
/// - a member expected as `null` must be present (`{"a":null}` rejects `{"b":1}`);
/// - with `placeholders` (`equalToJson`, not a JSONPath filter's `==`), an expected string that is a JsonUnit
///   placeholder (``JSONPlaceholder``, `"${json-unit.any-string}"`) matches what it accepts.
enum JSONEquivalence {
    static func matches(
        _ expected: JSONValue, _ actual: JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool,
        placeholders: JSONPlaceholders? = nil
    ) -> Bool {
        if let placeholders, case let .string(text) = expected, let placeholder = JSONPlaceholder(text) {
            return placeholder.accepts(actual, in: placeholders)
        }
        switch (expected, actual) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.number(a), .number(b)): return numbersEqual(a, b)
        case let (.object(e), .object(a)):
            if !ignoreExtraElements, e.count != a.count { return false }
            for member in e {
                guard let value = a.first(where: { $0.key == member.key })?.value,
                    matches(
                        member.value, value, ignoreArrayOrder: ignoreArrayOrder,
                        ignoreExtraElements: ignoreExtraElements,
                        placeholders: placeholders)
                else { return false }
            }
            return true
        case let (.array(e), .array(a)):
            if ignoreExtraElements ? a.count < e.count : a.count != e.count { return false }
            if !ignoreArrayOrder {
                return zip(e, a).allSatisfy {
                    matches(
                        $0, $1, ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements,
                        placeholders: placeholders)
                }
            }
            return unorderedMatch(e, a) {
                matches(
                    $0, $1, ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements,
                    placeholders: placeholders)
            }
        case (.null, _), (.bool, _), (.number, _), (.string, _), (.array, _), (.object, _):
            return false
        }
    }

    /// A distance for near-miss ranking (`equalToJson`, placeholders honoured): 0 on a match, else the share
    /// of the expected leaves that do not match at the same position (at least a small positive amount).
    /// - Parameter placeholders: `expected`'s placeholders, compiled with the matcher (found now when `nil`).
    static func distance(
        _ expected: JSONValue, _ actual: JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool,
        placeholders: JSONPlaceholders? = nil
    ) -> Double {
        let placeholders = placeholders ?? JSONPlaceholders(in: expected)
        if matches(
            expected, actual, ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements,
            placeholders: placeholders)
        {
            return 0
        }
        let (matched, total) = score(expected, actual, placeholders)
        guard total > 0 else { return 1 }
        return max(0.01, 1 - Double(matched) / Double(total))
    }

    /// Whether each expected item can be paired with a distinct actual item (augmenting paths).
    static func unorderedMatch(_ expected: [JSONValue], _ actual: [JSONValue], _ equal: (JSONValue, JSONValue) -> Bool)
        -> Bool
    {
        unorderedPairing(expected.count, actual.count) { equal(expected[$0], actual[$1]) }
    }

    /// Whether each of `left` items can be paired with a distinct one of `right` items for which
    /// `compatible(l, r)` holds (bipartite matching by augmenting paths).
    static func unorderedPairing(_ left: Int, _ right: Int, _ compatible: (Int, Int) -> Bool) -> Bool {
        guard left <= right else { return false }
        var options: [[Int]] = []
        options.reserveCapacity(left)
        for l in 0..<left {
            let candidates = (0..<right).filter { compatible(l, $0) }
            if candidates.isEmpty { return false }
            options.append(candidates)
        }
        var owner = [Int?](repeating: nil, count: right)
        func assign(_ item: Int, _ visited: inout [Bool]) -> Bool {
            for slot in options[item] where !visited[slot] {
                visited[slot] = true
                if let current = owner[slot] {
                    if assign(current, &visited) { owner[slot] = item; return true }
                } else {
                    owner[slot] = item
                    return true
                }
            }
            return false
        }
        for item in 0..<left {
            var visited = [Bool](repeating: false, count: right)
            if !assign(item, &visited) { return false }
        }
        return true
    }

    static func numbersEqual(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        if let x = Decimal(string: a, locale: Locale(identifier: "en_US_POSIX")),
            let y = Decimal(string: b, locale: Locale(identifier: "en_US_POSIX")), !x.isNaN, !y.isNaN
        {
            return x == y
        }
        guard let x = Double(a), let y = Double(b) else { return false }
        return x == y
    }

    private static func score(_ expected: JSONValue, _ actual: JSONValue?, _ placeholders: JSONPlaceholders)
        -> (matched: Int, total: Int)
    {
        switch expected {
        case let .object(members):
            var result = (matched: 0, total: 0)
            for member in members {
                let s = score(member.value, actual?[member.key], placeholders)
                result.matched += s.matched
                result.total += s.total
            }
            return result.total == 0 ? (actual == expected ? 1 : 0, 1) : result
        case let .array(items):
            var result = (matched: 0, total: 0)
            var actualItems: [JSONValue] = []
            if case let .array(a)? = actual { actualItems = a }
            for (i, item) in items.enumerated() {
                let s = score(item, i < actualItems.count ? actualItems[i] : nil, placeholders)
                result.matched += s.matched
                result.total += s.total
            }
            return result.total == 0 ? (actual == expected ? 1 : 0, 1) : result
        case .null, .bool, .number, .string:
            guard let actual else { return (0, 1) }
            return (
                matches(
                    expected, actual, ignoreArrayOrder: false, ignoreExtraElements: false, placeholders: placeholders)
                    ? 1 : 0, 1
            )
        }
    }
}
