import StubHTTP
import StubTestSupport
import Testing

@testable import StubKit
@testable import StubMatching

/// `actualFormat`, RFC 1036, asctime and zone names in brackets. Every row was checked against WireMock 2.35.1
/// (standalone jar in UTC, the matcher on header `D`), except those marked otherwise.
@Suite("Date-time formats")
struct DateTimeFormatTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let matcher: DateTimeMatcher
        let value: String
        let matches: Bool
        var testDescription: String { "\(matcher) vs \"\(value)\" → \(matches)" }
        init(_ expected: String, _ format: String?, _ value: String, _ matches: Bool) {
            matcher = DateTimeMatcher(.before, expected, actualFormat: format)
            self.value = value
            self.matches = matches
        }
    }

    static let rows: [Row] = [
        // WireMock's own BeforeDateTimePatternTest.matchesActualDateAccordingToSpecifiedFormat
        Row("2021-06-14", "dd/MM/yyyy", "01/06/2021", true),
        Row("2021-06-14", "dd/MM/yyyy", "01/07/2021", false),
        Row("2021-06-14", "dd/MM/yyyy", "1/06/2021", false),  // dd is two digits
        Row("2021-06-14", "d/M/yyyy", "1/6/2021", true),
        Row("2021-06-14", "d/M/yyyy", "01/06/2021", true),
        Row("2021-06-14", "d/M/yyyy", "001/6/2021", true),  // d reads any number of digits
        Row("2021-06-13T09:00:00Z", "yyyy-MM-dd HH:mm:ss Z", "2021-06-13 10:00:00 +0200", true),
        Row("2021-06-13T09:00:00Z", "yyyy-MM-dd HH:mm:ss Z", "2021-06-13 11:00:00 +0200", false),
        Row("2021-06-13T09:00:00Z", "yyyy-MM-dd HH:mm:ss Z", "2021-06-13 08:00:00 Z", false),  // Z is +HHMM
        Row("2021-06-14T00:00:00Z", "unix", "1623628000", true),
        Row("2021-06-14T00:00:00Z", "unix", "1623628800", false),
        Row("2021-06-14T10:00:00Z", "epoch", "1623628000000", true),
        Row("2021-06-14", "dd MMM yyyy", "01 Jun 2021", true),
        Row("2021-06-14", "dd MMM yyyy", "01 jun 2021", false),  // names are case-sensitive
        Row("2021-06-14", "dd MMM yyyy", "01 June 2021", false),
        Row("2021-06-14", "EEE, dd MMM yyyy", "Tue, 01 Jun 2021", true),
        Row("2021-06-14", "EEE, dd MMM yyyy", "Wed, 01 Jun 2021", false),  // the wrong day name
        Row("2021-06-14", "yyyyMMdd", "20210601", true),  // adjacent fields
        Row("2021-06-14", "yyyyMMdd", "20210701", false),
        Row("2021-06-14", "HH:mm", "10:00", false),  // no date
        Row("2021-06-14T00:00:00", "yyyy-MM-dd hh:mm a", "2021-06-13 11:00 PM", true),
        Row("2021-06-14T00:00:00", "yyyy-MM-dd hh:mm a", "2021-06-14 01:00 AM", false),
        Row("2021-06-14", "yy-MM-dd", "21-06-01", true),
        Row("2021-06-14", "yy-MM-dd", "99-06-01", false),  // yy is 2000-2099
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "2021-06-14T11:00:00.000+02:00", true),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "2021-06-14T11:00:00.000Z", false),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd'T'HH:mmX", "2021-06-14T11:00+02", true),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd'T'HH:mmX", "2021-06-14T09:00Z", true),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd HH:mm z", "2021-06-14 09:00 GMT", true),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd HH:mm z", "2021-06-14 09:00 UTC", true),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd HH:mm z", "2021-06-14 09:00 Europe/Paris", true),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd HH:mm z", "2021-06-14 11:00 GMT", false),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd HH:mm z", "2021-06-14 12:00 CEST", false),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd HH:mm z", "2021-06-14 11:59 CEST", true),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd HH:mm z", "2021-06-14 02:30 PST", true),  // PST is Los Angeles, in DST
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd HH:mm ZZZZ", "2021-06-14 11:00 GMT+02:00", true),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd HH:mm ZZZZ", "2021-06-14 11:00 GMT", false),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd HH:mm:ss.SSS", "2021-06-14 09:59:59.999", true),
        Row("2021-06-14T10:00:00Z", "yyyy-MM-dd HH:mm:ss.SSS", "2021-06-14 09:59:59.99", false),
        Row("2021-07-01", "dd/MM/yyyy", "31/06/2021", true),  // the month's last day
        Row("2021-07-01", "dd/MM/yyyy", "32/06/2021", false),
        Row("2021-06-14T00:00:00", "yyyy-MM-dd HH", "2021-06-13 23", true),  // minutes default to 0
        Row("2021-06-14T00:00:00", "yyyy-MM-dd HH", "2021-06-14 00", false),
        Row("2021-06-14", "yyyy-MM-dd X", "2021-06-13 Z", true),  // no time: a local date
        Row("2021-06-14", "yyyy-MM-dd X", "2021-06-14 +02", false),
        Row("2021-06-13T06:00:00", "yyyy-MM-dd hh:mm", "2021-06-13 11:00", true),  // hh without a: no time
        Row("2021-06-14", "uuuu-MM-dd", "2021-06-01", true),
        Row("2021-06-14", "yyyy-MM-dd[ HH:mm]", "2021-06-01", true),  // an optional section
        Row("2021-06-14", "yyyy-MM-dd[ HH:mm]", "2021-06-01 10:00", true),
        // Without actualFormat: WireMock's parsers in turn.
        Row("2021-06-14T00:00:00Z", nil, "Sunday, 13-Jun-21 10:00:00 GMT", true),  // RFC 1036
        Row("2021-06-14T00:00:00Z", nil, "Sunday, 13-Jun-21 10:00:00 UTC", true),
        Row("2021-06-14T00:00:00Z", nil, "Sun Jun 13 10:00:00 2021", true),  // asctime
        Row("2021-06-14T00:00:00Z", nil, "Sun Jun  6 10:00:00 2021", true),
        Row("2021-06-14T00:00:00Z", nil, "Mon, 14 Jun 2021 00:00:00 GMT", false),
        Row("2021-06-14T00:00:00Z", nil, "2021-06-13T10:00:00+02:00[Europe/Paris]", true),
        Row("2021-06-14T00:00:00Z", nil, "2021-06-13T10:00:00Z[UTC]", true),
        Row("2021-06-14T00:00:00+02:00[Europe/Paris]", nil, "2021-06-13T23:00:00Z", false),
        Row("2021-06-14T00:00:00+02:00[Europe/Paris]", nil, "2021-06-13T21:00:00Z", true)
    ]

    @Test("Values read as WireMock reads them", arguments: rows)
    func row(_ row: Row) {
        let matcher = CompiledStringMatcher(.dateTime(row.matcher))
        #expect(matcher.matches(row.value) == row.matches)
    }

    @Test("A non-number under epoch or unix does not match (WireMock answers 500 to every request then)")
    func epochGarbage() {
        for format in ["epoch", "unix", "UNIX"] {
            let matcher = CompiledStringMatcher(.dateTime(DateTimeMatcher(.before, "now", actualFormat: format)))
            #expect(!matcher.matches("01/06/2021"))
            #expect(!matcher.matches("99999999999999999999"))
        }
    }

    @Test("A pattern Java refuses is a load error naming the field, as WireMock refuses the file")
    func invalidPattern() throws {
        for (format, reason) in [
            ("bb", "unknown pattern letter: b"), ("ddd/MM", "too many pattern letters: d"),
            ("'dd", "pattern ends within text in quotes"), ("yyyy#", "pattern includes reserved character: '#'")
        ] {
            let document =
                #"{"request": {"headers": {"D": {"before": "now", "actualFormat": ""# + format
                + #""}}}, "response": {}}"#
            #expect {
                _ = try MappingDecoder().decodeDocument(try JSONParser.parse(document), file: nil)
            } throws: { error in
                "\(error)".contains("request.headers.D.actualFormat") && "\(error)".contains(reason)
            }
        }
    }

    @Test("actualFormat round-trips through the stub file format and the description")
    func encodes() throws {
        let document =
            #"{"request": {"headers": {"D": {"before": "2021-06-14", "actualFormat": "dd/MM/yyyy"}}}, "response": {}}"#
        let mapping = try #require(
            try MappingDecoder().decodeDocument(try JSONParser.parse(document), file: nil).mappings.first)
        let matcher = StringMatcher.dateTime(DateTimeMatcher(.before, "2021-06-14", actualFormat: "dd/MM/yyyy"))
        #expect(mapping.request.headers.first?.matcher == .single(matcher))
        let header = matcher
        #expect(header.json["actualFormat"] == .string("dd/MM/yyyy"))
        #expect("\(header)" == #"before "2021-06-14" (actualFormat "dd/MM/yyyy")"#)
    }

    @Test("A day past the month's end is its last day (WM: equalToDateTime 2021-06-30 matches 31/06/2021)")
    func clamps() {
        let matcher = CompiledStringMatcher(
            .dateTime(DateTimeMatcher(.equalToDateTime, "2021-06-30", actualFormat: "dd/MM/yyyy")))
        #expect(matcher.matches("31/06/2021") && matcher.matches("30/06/2021"))
    }

    @Test("A near miss names the format the value did not read as")
    func explains() {
        let matcher = CompiledStringMatcher(
            .dateTime(DateTimeMatcher(.before, "2021-06-14", actualFormat: "dd/MM/yyyy")))
        #expect(
            matcher.explain(MatchSubject(body: Array("2021-06-01".utf8))) == [
                #""2021-06-01" is not a date-time in the format "dd/MM/yyyy""#
            ])
        #expect(
            matcher.explain(MatchSubject(body: Array("01/07/2021".utf8))) == [
                "2021-07-01T00:00:00 is not before 2021-06-14T00:00:00"
            ])
    }

    @Test("Every prefix and 2,000 seeded mutations of valid values read without a crash")
    func mutations() throws {
        let cases = [
            ("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "2021-06-14T11:00:00.000+02:00"),
            ("EEEE, dd-MMM-yy HH:mm:ss zzz", "Sunday, 13-Jun-21 10:00:00 GMT"),
            ("yyyy-MM-dd[ HH:mm[:ss]] ZZZZ", "2021-06-01 10:00:59 GMT+02:00"), ("yyyyMMddHHmmss", "20210601100059")
        ]
        var random = SplitMix64(seed: 21)
        for (format, value) in cases {
            let pattern = try DateTimePattern(format)
            let bytes = Array(value.utf8)
            #expect(pattern.parse(value) != nil, "\(format)")
            for end in 0..<bytes.count { _ = pattern.parse(String(decoding: bytes[..<end], as: UTF8.self)) }
            for _ in 0..<500 {
                var mutated = bytes
                let index = Int(random.next() % UInt64(mutated.count))
                mutated[index] = UInt8(truncatingIfNeeded: random.next())
                _ = pattern.parse(String(decoding: mutated, as: UTF8.self))
                _ = DateTimeValue.parse(String(decoding: mutated, as: UTF8.self))
            }
        }
    }
}
