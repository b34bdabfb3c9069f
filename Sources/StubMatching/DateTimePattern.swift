/// A `java.time.format.DateTimeFormatter` pattern, as WireMock's date matchers read one with `actualFormat`
/// (`"dd/MM/yyyy"`, `"yyyy-MM-dd HH:mm:ss Z"`, `"EEE, dd MMM yyyy[ HH:mm]"`), compiled once and read strictly:
/// case-sensitive English names, fixed widths for doubled letters, optional sections in brackets, and Java's
/// smart resolution (a day past the month's end is its last day; `yy` is 2000–2099).
package struct DateTimePattern: Sendable {
    /// One element of the pattern.
    indirect enum Piece: Sendable, Equatable {
        /// Text matched exactly.
        case literal(String)
        /// A number of `minimum...maximum` digits; `reducedBase` for `yy` (2000 + value).
        case number(Field, minimum: Int, maximum: Int, reducedBase: Int? = nil)
        /// Digits of a fraction of a second, exactly `digits` of them.
        case fraction(digits: Int)
        /// A month name (`MMM`, `MMMM`), a day name (`EEE`, `EEEE`) or `AM`/`PM`.
        case text(TextField, full: Bool)
        /// An offset as Java's `appendOffset` pattern (`+HHmm`, `+HH:MM`, …); `zulu` when `Z` means zero.
        case offset(OffsetStyle, zulu: Bool)
        /// `GMT+08:00` (`ZZZZ`).
        case localizedOffset
        /// A zone name or region id (`z`): `GMT`, `UTC`, `CEST`, `Europe/Paris`.
        case zoneName
        /// `[ … ]`: read if it can be, skipped otherwise.
        case optional([Piece])
    }

    enum Field: Sendable, Equatable { case year, month, day, hour24, clockHour24, hour12, clockHour12, minute, second }
    enum TextField: Sendable, Equatable { case month, weekday, amPm }
    enum OffsetStyle: Sendable, Equatable { case hoursMinutesOptional, hoursMinutes, hoursColonMinutes }

    /// Why a pattern cannot be used.
    package enum Failure: Error, Equatable {
        /// Java refuses it too (an unknown letter, too many letters, an unterminated quote or bracket).
        case invalid(String)
        /// A letter Java knows that stubserver does not read (week fields, quarters, eras, day of year, …).
        case unsupported(Character)
    }

    let pieces: [Piece]
    /// The offset of a value that names none (`asctime` is read in GMT); `nil` reads it as local.
    var defaultOffset: Int?

    init(pieces: [Piece], defaultOffset: Int? = nil) {
        self.pieces = pieces
        self.defaultOffset = defaultOffset
    }

    /// `"dd/MM/yyyy"`: compiled, or the reason it cannot be.
    package init(_ pattern: String) throws(Failure) {
        var reader = DateTimePatternReader(Array(pattern))
        pieces = try reader.pieces(closing: false)
    }

    /// RFC 1036 (`Sunday, 06-Nov-94 08:49:37 GMT`), as WireMock's `EEEE, dd-MMM-yy HH:mm:ss zzz`.
    static let rfc1036 = try! DateTimePattern("EEEE, dd-MMM-yy HH:mm:ss zzz")
    /// asctime (`Sun Nov  6 08:49:37 1994`, `Sun Nov 16 08:49:37 1994`), read in GMT.
    static let asctime = [
        DateTimePattern(pieces: try! DateTimePattern("EEE MMM dd HH:mm:ss yyyy").pieces, defaultOffset: 0),
        DateTimePattern(pieces: try! DateTimePattern("EEE MMM  d HH:mm:ss yyyy").pieces, defaultOffset: 0)
    ]

    /// The value read with the pattern, as WireMock reads it: zoned when it has a time and an offset or zone,
    /// local when it has a time only, the day's start (local) when it has a date only; `nil` when the text
    /// does not fit or names no complete date.
    func parse(_ text: String) -> DateTimeValue? {
        guard text.utf8.count <= DateTimeValue.maxLength else { return nil }
        var state = DateTimeParseState(Array(text.utf8))
        guard state.read(pieces), state.atEnd else { return nil }
        return state.resolved(defaultOffset: defaultOffset)
    }
}
