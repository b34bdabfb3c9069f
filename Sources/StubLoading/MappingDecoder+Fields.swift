import StubModel

/// Shared helpers of a decoding run: typed field access, unknown-field classification, errors.
extension MappingDecoder.Run {
    /// Fails with a mapping error at `path`.
    func failure(_ path: MappingPath, _ message: String) -> StubsLoadError {
        .invalidMapping(file, path: path.text, message)
    }

    func object(_ value: JSONValue, at path: MappingPath) throws(StubsLoadError) -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = value else {
            throw failure(path, "expected an object, found \(value.foundDescription)")
        }
        return members
    }

    /// The elements of the array `value`, each with its path; fails naming `what` (`"matchers"`) when `value` is
    /// not an array.
    func elements(_ value: JSONValue, at path: MappingPath, of what: String) throws(StubsLoadError)
        -> [(value: JSONValue, path: MappingPath)]
    {
        guard case .array(let elements) = value else {
            throw failure(path, "expected an array of \(what), found \(value.foundDescription)")
        }
        return elements.enumerated().map { (value: $1, path: path.index($0)) }
    }

    func string(_ value: JSONValue, at path: MappingPath) throws(StubsLoadError) -> String {
        guard case .string(let text) = value else {
            throw failure(path, "expected a string, found \(value.foundDescription)")
        }
        return text
    }

    func bool(_ value: JSONValue, at path: MappingPath) throws(StubsLoadError) -> Bool {
        guard case .bool(let flag) = value else {
            throw failure(path, "expected true or false, found \(value.foundDescription)")
        }
        return flag
    }

    func integer(_ value: JSONValue, at path: MappingPath, in range: ClosedRange<Int>? = nil) throws(StubsLoadError)
        -> Int
    {
        guard let number = value.intValue else {
            throw failure(path, "expected an integer, found \(value.foundDescription)")
        }
        if let range, !range.contains(number) {
            let bounds =
                range.upperBound == Int.max
                ? "\(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
            throw failure(path, "expected an integer \(bounds), found \(number)")
        }
        return number
    }

    /// ``integer(_:at:in:)`` that also reads a string holding a whole number (`"priority": "1"`), as WireMock's
    /// Jackson coerces one into an `Integer` field.
    func coercedInteger(_ value: JSONValue, at path: MappingPath, in range: ClosedRange<Int>) throws(StubsLoadError)
        -> Int
    {
        if case .string(let text) = value, let number = Int(text) {
            return try integer(JSONValue(number), at: path, in: range)
        }
        return try integer(value, at: path, in: range)
    }

    /// Checks the keys of an object that are not `supported`.
    ///
    /// - `silent` keys are accepted and ignored.
    /// - `wireMockOnly` keys are WireMock features stubserver ignores: a warning.
    /// - A key within edit distance 2 of a supported one, or equal to it ignoring case: an error
    ///   with a suggestion (`response.stauts: unknown field; did you mean 'status'?`).
    /// - Anything else: an "unknown field" warning.
    mutating func checkFields(
        _ members: [(key: String, value: JSONValue)], at path: MappingPath,
        supported: [String], silent: Set<String> = [],
        wireMockOnly: Set<String> = []
    ) throws(StubsLoadError) {
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
        warnings.append(
            MappingWarning(kind: kind, field: field, context: context.isEmpty ? "mapping" : context, file: file))
    }
}
