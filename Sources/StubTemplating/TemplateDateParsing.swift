/// Reading dates for `parseDate`: WireMock's zoned ISO 8601 form (`2024-03-05T10:15:30Z`,
/// `…+02:00`, with optional fractions of a second), `epoch` / `unix` numbers, or a `SimpleDateFormat`
/// pattern made of `y M d H m s S` fields (numbers) and literals, read in UTC.
enum TemplateDateParsing {
    /// Milliseconds since 1970 and the offset written (`nil` for `Z` or a pattern), or `nil`.
    static func parse(_ text: String, format: String?) -> (milliseconds: Int64, offsetSeconds: Int?)? {
        switch format {
        case "epoch"?: return Int64(text).map { ($0, nil) }
        case "unix"?:
            return Int64(text).flatMap { $0.multipliedReportingOverflow(by: 1000).overflow ? nil : ($0 * 1000, nil) }
        case let pattern?:
            guard let format = try? JavaDateFormat(pattern) else { return nil }
            return parse(text, pieces: format.pieces).map { ($0, nil) }
        case nil:
            return iso(text)
        }
    }

    /// `yyyy-MM-ddTHH:mm[:ss[.fraction]]` then `Z` or `±HH:mm`.
    private static func iso(_ text: String) -> (milliseconds: Int64, offsetSeconds: Int?)? {
        let scalars = Array(text.utf8)
        guard scalars.count >= 17,
            let zoneStart = scalars.lastIndex(where: {
                $0 == UInt8(ascii: "Z") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
            }),
            zoneStart > 10
        else { return nil }
        let local = String(decoding: scalars[..<zoneStart], as: UTF8.self)
        let zone = String(decoding: scalars[zoneStart...], as: UTF8.self)
        var offset: Int? = nil
        if zone != "Z" {
            let parts = zone.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hours = Int(parts[0]),
                let minutes = Int(parts[1]),
                hours < 19, minutes < 60
            else { return nil }
            offset = (zone.hasPrefix("-") ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        var pieces: [JavaDateFormat.Piece] = [
            .field("y", count: 4), .literal("-"), .field("M", count: 2), .literal("-"), .field("d", count: 2),
            .literal("T"), .field("H", count: 2), .literal(":"), .field("m", count: 2)
        ]
        let clock = local.split(separator: "T").last ?? ""
        if clock.split(separator: ":").count > 2 { pieces += [.literal(":"), .field("s", count: 2)] }
        if clock.contains(".") { pieces += [.literal("."), .field("S", count: 1)] }
        guard let milliseconds = parse(local, pieces: pieces) else { return nil }
        return (milliseconds - Int64((offset ?? 0) * 1000), offset == 0 ? nil : offset)
    }

    /// Reads the text field by field; every field is a number (`S`: a fraction of a second when it
    /// follows `.`, as in ISO, else milliseconds).
    static func parse(_ text: String, pieces: [JavaDateFormat.Piece]) -> Int64? {
        var rest = Substring(text)
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, millisecond = 0
        var previousLiteral = ""
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case let .literal(literal):
                guard rest.hasPrefix(literal) else { return nil }
                rest = rest.dropFirst(literal.count)
                previousLiteral = literal
            case let .field(letter, count):
                // A field followed by another field takes exactly its width; otherwise all its digits.
                let nextIsField =
                    index + 1 < pieces.count && { if case .field = pieces[index + 1] { true } else { false } }()
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                let taken = nextIsField ? digits.prefix(count) : digits
                guard !taken.isEmpty, taken.count <= 9, let value = Int(taken) else { return nil }
                rest = rest.dropFirst(taken.count)
                switch letter {
                case "y": year = value
                case "M": month = value
                case "d": day = value
                case "H": hour = value
                case "m": minute = value
                case "s": second = value
                case "S":
                    if previousLiteral == "." {
                        var scaled = String(taken.prefix(3))
                        while scaled.count < 3 { scaled += "0" }
                        millisecond = Int(scaled) ?? 0
                    } else {
                        millisecond = value
                    }
                default: return nil
                }
            }
        }
        guard rest.isEmpty, (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60, millisecond < 1000
        else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSince1970
        return days * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond)
    }
}
