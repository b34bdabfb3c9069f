#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A Java `SimpleDateFormat` pattern, the subset WireMock users write: `G y Y M L d D E u a H k K h m s S
/// z Z X` and `'quoted text'`. Parsed once; formatting computes fields arithmetically (no
/// `DateFormatter`, no locale: English names, as WireMock's default locale on CI).
struct JavaDateFormat: Sendable {
    enum Piece: Sendable {
        case literal(String)
        case field(Character, count: Int)
    }

    let pieces: [Piece]

    static let empty = JavaDateFormat(pieces: [])

    private init(pieces: [Piece]) { self.pieces = pieces }

    init(_ pattern: String) throws(DateOptions.Failure) {
        var pieces: [Piece] = []
        let characters = Array(pattern)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c == "'" {
                var text = ""
                i += 1
                if i < characters.count, characters[i] == "'" { pieces.append(.literal("'")); i += 1; continue }
                while i < characters.count {
                    if characters[i] == "'" {
                        if i + 1 < characters.count, characters[i + 1] == "'" { text.append("'"); i += 2; continue }
                        break
                    }
                    text.append(characters[i])
                    i += 1
                }
                guard i < characters.count else {
                    throw DateOptions.Failure(message: "unterminated quote in format '\(pattern)'")
                }
                i += 1
                pieces.append(.literal(text))
            } else if c.isASCII, c.isLetter {
                guard "GyYMLdDEuaHkKhmsSzZX".contains(c) else {
                    throw DateOptions.Failure(message: "illegal pattern character '\(c)' in format '\(pattern)'")
                }
                var count = 1
                while i + count < characters.count, characters[i + count] == c { count += 1 }
                pieces.append(.field(c, count: count))
                i += count
            } else {
                pieces.append(.literal(String(c)))
                i += 1
            }
        }
        self.pieces = pieces
    }

    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December"
    ]
    private static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// Formats `milliseconds` since 1970 in `zone` (UTC when nil); `zoneID` is the id as written, for `z`.
    func format(_ milliseconds: Int64, zone: TimeZone?, zoneID: String? = nil) -> String {
        let offsetSeconds =
            zone.map { Int64($0.secondsFromGMT(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000))) } ?? 0
        let local = milliseconds + offsetSeconds * 1000
        let days = local.floorDivided(by: 86_400_000)
        let msOfDay = Int(local - days * 86_400_000)
        let date = CivilDate(daysSince1970: days)
        let hour = msOfDay / 3_600_000, minute = msOfDay / 60_000 % 60, second = msOfDay / 1000 % 60
        let remainder = (days + 3) % 7  // 1970-01-01 was a Thursday; 0 = Monday
        let weekday = Int(remainder < 0 ? remainder + 7 : remainder)
        var out = ""
        for piece in pieces {
            switch piece {
            case let .literal(text): out += text
            case let .field(letter, count):
                switch letter {
                case "G": out += date.year > 0 ? "AD" : "BC"
                case "y", "Y": out += count == 2 ? Self.pad(date.year % 100, 2) : Self.pad(date.year, count)
                case "M", "L":
                    out +=
                        count >= 4
                        ? Self.months[date.month - 1]
                        : count == 3 ? String(Self.months[date.month - 1].prefix(3)) : Self.pad(date.month, count)
                case "d": out += Self.pad(date.day, count)
                case "D":
                    let startOfYear = CivilDate(year: date.year, month: 1, day: 1).daysSince1970
                    out += Self.pad(Int(days - startOfYear) + 1, count)
                case "E": out += count >= 4 ? Self.weekdays[weekday] : String(Self.weekdays[weekday].prefix(3))
                case "u": out += Self.pad(weekday + 1, count)
                case "a": out += hour < 12 ? "AM" : "PM"
                case "H": out += Self.pad(hour, count)
                case "k": out += Self.pad(hour == 0 ? 24 : hour, count)
                case "K": out += Self.pad(hour % 12, count)
                case "h": out += Self.pad(hour % 12 == 0 ? 12 : hour % 12, count)
                case "m": out += Self.pad(minute, count)
                case "s": out += Self.pad(second, count)
                case "S": out += Self.pad(msOfDay % 1000, count)
                case "z":
                    out += Self.zoneName(zone, id: zoneID, offsetSeconds: offsetSeconds, milliseconds: milliseconds)
                case "Z": out += Self.offset(offsetSeconds, colon: false, zulu: false)
                default: out += Self.offset(offsetSeconds, colon: count >= 3, zulu: true, hoursOnly: count == 1)
                }
            }
        }
        return out
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(abs(value))
        let padded = text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        return value < 0 ? "-" + padded : padded
    }

    private static func offset(_ seconds: Int64, colon: Bool, zulu: Bool, hoursOnly: Bool = false) -> String {
        if zulu, seconds == 0 { return "Z" }
        let sign = seconds < 0 ? "-" : "+"
        let minutes = Int(abs(seconds) / 60)
        if hoursOnly { return sign + pad(minutes / 60, 2) }
        return sign + pad(minutes / 60, 2) + (colon ? ":" : "") + pad(minutes % 60, 2)
    }

    private static func zoneName(_ zone: TimeZone?, id: String?, offsetSeconds: Int64, milliseconds: Int64) -> String {
        guard let zone, let id, id != "UTC", id != "Etc/UTC" else { return "UTC" }
        if id == "GMT" { return "GMT" }
        if let abbreviation = zone.abbreviation(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000)),
            abbreviation.first?.isLetter == true, !abbreviation.hasPrefix("GMT")
        {
            return abbreviation
        }
        return "GMT" + offset(offsetSeconds, colon: true, zulu: false)
    }
}

extension CivilDate {
    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }
}
