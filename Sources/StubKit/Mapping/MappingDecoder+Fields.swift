/// Shared helpers of a decoding run: typed field access, unknown-field classification, errors.
extension MappingDecoder.Run {
    /// Fails with a mapping error at `path`.
    func failure(_ path: MappingPath, _ message: String) -> StubsLoadError {
        .invalidMapping(file, path: path.text, message)
    }

    func object(_ value: JSONValue, at path: MappingPath) throws(StubsLoadError) -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = value else { throw failure(path, "expected an object, found \(value.foundDescription)") }
        return members
    }

    func string(_ value: JSONValue, at path: MappingPath) throws(StubsLoadError) -> String {
        guard case .string(let text) = value else { throw failure(path, "expected a string, found \(value.foundDescription)") }
        return text
    }

    func bool(_ value: JSONValue, at path: MappingPath) throws(StubsLoadError) -> Bool {
        guard case .bool(let flag) = value else { throw failure(path, "expected true or false, found \(value.foundDescription)") }
        return flag
    }

    func integer(_ value: JSONValue, at path: MappingPath, in range: ClosedRange<Int>? = nil) throws(StubsLoadError) -> Int {
        guard let number = value.intValue else {
            throw failure(path, "expected an integer, found \(value.foundDescription)")
        }
        if let range, !range.contains(number) {
            let bounds = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
            throw failure(path, "expected an integer \(bounds), found \(number)")
        }
        return number
    }

    /// Checks the keys of an object that are not `supported`.
    ///
    /// - `silent` keys are accepted and ignored.
    /// - `wireMockOnly` keys are WireMock features stubserver ignores: a warning.
    /// - A key within edit distance 2 of a supported one, or equal to it ignoring case: an error
    ///   with a suggestion (`response.stauts: unknown field; did you mean 'status'?`).
    /// - Anything else: an "unknown field" warning.
    mutating func checkFields(_ members: [(key: String, value: JSONValue)], at path: MappingPath,
                              supported: [String], silent: Set<String> = [],
                              wireMockOnly: Set<String> = []) throws(StubsLoadError) {
        for (key, _) in members where !supported.contains(key) && !silent.contains(key) {
            if wireMockOnly.contains(key) {
                warn(.unsupported, key, at: path)
            } else if let suggestion = FieldSuggestion.closest(to: key, among: supported) {
                throw failure(path.key(key), "unknown field; did you mean '\(suggestion)'?")
            } else {
                warn(.unknown, key, at: path)
            }
        }
    }

    /// Records a warning about `field` in the object at `path`.
    mutating func warn(_ kind: MappingWarning.Kind, _ field: String, at path: MappingPath) {
        var context = path.withoutIndices
        if context == "mappings" {
            context = ""
        } else if context.hasPrefix("mappings.") {
            context.removeFirst("mappings.".count)
        }
        warnings.append(MappingWarning(kind: kind, field: field, context: context.isEmpty ? "mapping" : context, file: file))
    }
}

/// "Did you mean" suggestions for misspelt field names.
enum FieldSuggestion {
    /// The supported name `key` is probably a misspelling of: equal ignoring case, or within
    /// optimal-string-alignment distance 2 (a transposition counts 1), but never more than half the
    /// candidate's length, so short names do not attract everything.
    static func closest(to key: String, among candidates: [String]) -> String? {
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
