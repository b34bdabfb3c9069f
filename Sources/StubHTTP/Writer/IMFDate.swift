#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Formats HTTP dates in IMF-fixdate form (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
enum IMFDate {
    private static let days: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months: [StaticString] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun",
        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
    ]

    /// The 29 bytes of the IMF-fixdate for `epochSeconds` (UTC).
    static func format(epochSeconds: Int) -> [UInt8] {
        var seconds = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var out: [UInt8] = []
        out.reserveCapacity(29)
        append(days[Int(parts.tm_wday) % 7], to: &out)
        out.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")])
        appendTwoDigits(Int(parts.tm_mday), to: &out)
        out.append(UInt8(ascii: " "))
        append(months[Int(parts.tm_mon) % 12], to: &out)
        out.append(UInt8(ascii: " "))
        let year = Int(parts.tm_year) + 1900
        appendTwoDigits(year / 100, to: &out)
        appendTwoDigits(year % 100, to: &out)
        out.append(UInt8(ascii: " "))
        appendTwoDigits(Int(parts.tm_hour), to: &out)
        out.append(UInt8(ascii: ":"))
        appendTwoDigits(Int(parts.tm_min), to: &out)
        out.append(UInt8(ascii: ":"))
        appendTwoDigits(Int(parts.tm_sec), to: &out)
        out.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: "G"), UInt8(ascii: "M"), UInt8(ascii: "T")])
        return out
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private static func appendTwoDigits(_ value: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: (value / 10) % 10))
        out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10))
    }
}

/// The `Date: …\r\n` header line, recomputed at most once per second. One per event loop.
struct DateCache {
    private var second = -1
    private(set) var line: [UInt8] = []

    /// The header line for the current wall-clock second.
    mutating func currentLine() -> [UInt8] {
        line(forEpochSecond: Int(time(nil)))
    }

    /// The header line for `epochSecond`, reusing the cached bytes within the same second.
    mutating func line(forEpochSecond epochSecond: Int) -> [UInt8] {
        if epochSecond != second {
            second = epochSecond
            line = Array("Date: ".utf8) + IMFDate.format(epochSeconds: epochSecond) + [13, 10]
        }
        return line
    }
}
