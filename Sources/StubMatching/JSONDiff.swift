import StubModel

/// The field-level differences between an expected and a received JSON document, as near-miss and
/// verification reports show them for `equalToJson` body patterns:
///
/// ```text
/// $.private: expected false, got true
/// $.topics[1]: expected "swift", got "objc"
/// $.description: missing, expected "A repo"
/// $.owner.id: unexpected, got 1
/// ```
///
/// It follows ``JSONEquivalence``'s rules (numbers compare numerically, `ignoreArrayOrder`,
/// `ignoreExtraElements`), so it lists only what the matcher rejects. Bounded: at most ``lineLimit``
/// lines, each value cut to ``valueLimit`` bytes, and a last line counting the differences left out.
enum JSONDiff {
    /// Most difference lines listed.
    static let lineLimit = 8
    /// Longest JSON value shown in a line, in UTF-8 bytes.
    static let valueLimit = 80

    /// The differences, one line each, paths rooted at `root` (`$`, or a JSONPath's expression).
    /// - Parameter placeholders: `expected`'s placeholders, compiled with the matcher (found now when `nil`).
    static func lines(
        expected: JSONValue, actual: JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool,
        placeholders: JSONPlaceholders? = nil, root: String = "$"
    ) -> [String] {
        var collector = Collector()
        let options = Options(
            order: ignoreArrayOrder, extra: ignoreExtraElements,
            placeholders: placeholders ?? JSONPlaceholders(in: expected))
        diff(expected, actual, root, options, &collector)
        return collector.finished()
    }

    private struct Options {
        var order: Bool
        var extra: Bool
        var placeholders: JSONPlaceholders
    }

    /// The first ``lineLimit`` lines and how many there were in all.
    struct Collector {
        private(set) var lines: [String] = []
        private(set) var total = 0

        mutating func add(_ line: @autoclosure () -> String) {
            total += 1
            if lines.count < JSONDiff.lineLimit { lines.append(line()) }
        }

        func finished() -> [String] {
            let left = total - lines.count
            guard left > 0 else { return lines }
            return lines + ["… and \(left) more difference\(left == 1 ? "" : "s")"]
        }
    }

    private static func diff(
        _ expected: JSONValue, _ actual: JSONValue, _ path: String, _ options: Options,
        _ out: inout Collector
    ) {
        if JSONEquivalence.matches(
            expected, actual, ignoreArrayOrder: options.order, ignoreExtraElements: options.extra,
            placeholders: options.placeholders)
        {
            return
        }
        switch (expected, actual) {
        case let (.object(wanted), .object(got)):
            var received: [String: JSONValue] = [:]
            for member in got where received[member.key] == nil { received[member.key] = member.value }
            for member in wanted {
                let child = memberPath(path, member.key)
                if let value = received[member.key] {
                    diff(member.value, value, child, options, &out)
                } else {
                    out.add("\(child): missing, expected \(render(member.value))")
                }
            }
            if !options.extra {
                let names = Set(wanted.map(\.key))
                for member in got where !names.contains(member.key) {
                    out.add("\(memberPath(path, member.key)): unexpected, got \(render(member.value))")
                }
            }
        case let (.array(wanted), .array(got)) where options.order:
            unorderedDiff(wanted, got, expected, actual, path, options, &out)
        case let (.array(wanted), .array(got)):
            for index in 0..<min(wanted.count, got.count) {
                diff(wanted[index], got[index], "\(path)[\(index)]", options, &out)
            }
            if got.count < wanted.count {
                for index in got.count..<wanted.count {
                    out.add("\(path)[\(index)]: missing, expected \(render(wanted[index]))")
                }
            } else if !options.extra {
                for index in wanted.count..<got.count {
                    out.add("\(path)[\(index)]: unexpected, got \(render(got[index]))")
                }
            }
        case (.null, _), (.bool, _), (.number, _), (.string, _), (.array, _), (.object, _):
            out.add("\(path): expected \(render(expected)), got \(render(actual))")
        }
    }

    /// `ignoreArrayOrder`: the expected items found nowhere, a wrong count, or else the whole arrays.
    private static func unorderedDiff(
        _ wanted: [JSONValue], _ got: [JSONValue], _ expected: JSONValue, _ actual: JSONValue,
        _ path: String, _ options: Options, _ out: inout Collector
    ) {
        let before = out.total
        if options.extra ? got.count < wanted.count : got.count != wanted.count {
            out.add(
                "\(path): expected \(options.extra ? "at least " : "")\(wanted.count) items in any order, got \(got.count)"
            )
        }
        for item in wanted
        where !got.contains(where: {
            JSONEquivalence.matches(
                item, $0, ignoreArrayOrder: options.order, ignoreExtraElements: options.extra,
                placeholders: options.placeholders)
        }) {
            out.add("\(path): missing, expected \(render(item)) at any position")
        }
        if out.total == before {
            out.add("\(path): expected \(render(expected)) in any order, got \(render(actual))")
        }
    }

    /// `$.name`, or `$['odd name']` for a key that is not an identifier.
    static func memberPath(_ path: String, _ key: String) -> String {
        let isIdentifier =
            !key.isEmpty
            && key.unicodeScalars.enumerated().allSatisfy { offset, scalar in
                scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                    || (offset > 0 && ("0"..."9").contains(scalar))
            }
        if isIdentifier { return path + "." + key }
        var escaped = ""
        for character in key {
            if character == "'" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return path + "['" + Quoting.truncate(escaped, limit: valueLimit) + "']"
    }

    /// Compact JSON cut to ``valueLimit`` bytes, without serializing more of a big value than is shown.
    static func render(_ value: JSONValue) -> String {
        var writer = BoundedWriter(limit: valueLimit)
        writer.write(value)
        return writer.finished()
    }

    private struct BoundedWriter {
        let limit: Int
        var text = ""
        var bytes = 0
        var cut = false

        mutating func append(_ piece: String) {
            guard !cut else { return }
            let size = piece.utf8.count
            if bytes + size > limit {
                text += Quoting.prefix(piece, limit: limit - bytes)
                cut = true
            } else {
                text += piece
                bytes += size
            }
        }

        mutating func write(_ value: JSONValue) {
            guard !cut else { return }
            switch value {
            case .null: append("null")
            case let .bool(flag): append(flag ? "true" : "false")
            case let .number(digits): append(digits)
            case let .string(string):
                // Escaping a long string whole would cost its full length; only what can show is escaped.
                let shown = String(Quoting.prefix(string, limit: limit))
                append(JSONValue.escapedString(shown))
                if shown.utf8.count < string.utf8.count { cut = true }
            case let .array(items):
                append("[")
                for (index, item) in items.enumerated() {
                    if cut { return }
                    if index > 0 { append(",") }
                    write(item)
                }
                append("]")
            case let .object(members):
                append("{")
                for (index, member) in members.enumerated() {
                    if cut { return }
                    if index > 0 { append(",") }
                    append(JSONValue.escapedString(String(Quoting.prefix(member.key, limit: limit))) + ":")
                    write(member.value)
                }
                append("}")
            }
        }

        func finished() -> String { cut ? text + "…" : text }
    }
}
