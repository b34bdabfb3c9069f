/// "Did you mean" suggestions for misspelt names: stub-file fields and command-line options.
public enum FieldSuggestion {
    /// The supported name `key` is probably a misspelling of: equal ignoring case, or within
    /// optimal-string-alignment distance 2 (a transposition counts 1), but never more than half the
    /// candidate's length, so short names do not attract everything.
    public static func closest(to key: String, among candidates: [String]) -> String? {
        let lowered = key.lowercased()
        if let exact = candidates.first(where: { $0.lowercased() == lowered }) { return exact }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(Array(lowered.unicodeScalars), Array(candidate.lowercased().unicodeScalars))
            guard distance <= 2, distance <= candidate.count / 2 else { continue }
            if best == nil || distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
