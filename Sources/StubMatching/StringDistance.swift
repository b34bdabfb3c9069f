/// Normalised string distances for near-miss ranking, as WireMock computes them.
enum StringDistance {
    /// Above this many cells (n × m) the exact Levenshtein distance is replaced by a cheap estimate.
    static let exactCellLimit = 250_000

    /// Levenshtein distance divided by the longer length: 0 for equal strings, 1 for nothing in common
    /// (WireMock's `normalisedLevenshteinDistance`, used by `equalTo` and exact URLs).
    static func normalisedLevenshtein(_ a: String, _ b: String) -> Double {
        if a == b { return 0 }
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        let longest = max(x.count, y.count)
        guard longest > 0 else { return 0 }
        guard !x.isEmpty, !y.isEmpty else { return 1 }
        if x.count * y.count > exactCellLimit { return estimate(x, y) }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return Double(previous[y.count]) / Double(longest)
    }

    /// A linear-time stand-in for ``normalisedLevenshtein(_:_:)`` from the common prefix and suffix:
    /// 0 for equal strings, and it still orders near misses sensibly.
    static func estimate(_ a: String, _ b: String) -> Double {
        if a == b { return 0 }
        return estimate(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    private static func estimate(_ x: [Unicode.Scalar], _ y: [Unicode.Scalar]) -> Double {
        let longest = max(x.count, y.count)
        guard longest > 0 else { return 0 }
        let shortest = min(x.count, y.count)
        var prefix = 0
        while prefix < shortest, x[prefix] == y[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shortest - prefix, x[x.count - 1 - suffix] == y[y.count - 1 - suffix] { suffix += 1 }
        return max(Double.ulpOfOne, 1 - Double(prefix + suffix) / Double(longest))
    }
}
