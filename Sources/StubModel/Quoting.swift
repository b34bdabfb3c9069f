/// Quoting and truncation of values shown to people (mismatches, near-miss reports).
package enum Quoting {
    /// `"value"` with quotes, backslashes and control characters escaped, cut to `limit` UTF-8 bytes.
    package static func quote(_ value: String, limit: Int = .max) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return truncate(out + "\"", limit: limit)
    }

    /// `value` itself if it fits in `limit` UTF-8 bytes, else its longest prefix that does (cut at a
    /// character boundary) followed by `… (N more bytes)`.
    package static func truncate(_ value: String, limit: Int) -> String {
        let total = value.utf8.count
        guard total > limit else { return value }
        let kept = prefix(value, limit: limit)
        return String(kept) + "… (\(total - kept.utf8.count) more bytes)"
    }

    /// The longest prefix of `value` that fits in `limit` UTF-8 bytes, cut at a character boundary.
    package static func prefix(_ value: String, limit: Int) -> Substring {
        var kept = 0
        var end = value.startIndex
        for index in value.indices {
            let next = value.index(after: index)
            let size = value[index..<next].utf8.count
            if kept + size > limit { break }
            kept += size
            end = next
        }
        return value[..<end]
    }
}
