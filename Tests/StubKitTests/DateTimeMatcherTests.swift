import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// `before`, `after` and `equalToDateTime`. Rows marked "WM" were checked against WireMock 2.35.1 (standalone
/// jar in UTC, matcher on header `X`).
@Suite("Date-time matchers")
struct DateTimeMatcherTests {
    typealias Row = MatcherRow<DateTimeMatcher, Bool>

    static let noonZ = DateTimeMatcher(.before, "2021-06-14T12:00:00Z")
    static let noonLocal = DateTimeMatcher(.before, "2021-06-14T12:00:00")

    static let rows: [Row] = [
        Row(noonZ, "2021-06-14T11:59:59Z", true),  // WM
        Row(noonZ, "2021-06-14T12:00:00Z", false),  // WM
        Row(noonZ, "2021-06-14T13:00:00+02:00", true),  // WM: the instant counts
        Row(noonZ, "2021-06-14T11:00:00", true),  // WM: a local value, in the server's zone (UTC)
        Row(noonZ, "2021-06-14T12:30:00", false),  // WM
        Row(noonZ, "2021-06-14", true),  // WM: the day's start
        Row(noonZ, "2021-06-15", false),  // WM
        Row(noonZ, "Mon, 14 Jun 2021 11:00:00 GMT", true),  // WM: RFC 1123
        Row(noonZ, "Tue, 14 Jun 2021 11:00:00 GMT", false),  // WM: the wrong day name
        Row(noonZ, "14 Jun 2021 11:00:00 +0000", true),  // WM
        Row(noonZ, "2021-06-14T11:00Z", true),  // WM: seconds are optional
        Row(noonZ, "garbage", false),  // WM
        Row(noonZ, "", false),  // WM
        Row(noonZ, nil, false),
        Row(noonZ, "2021-02-30T11:00:00Z", false),  // no such day
        Row(noonLocal, "2021-06-14T13:00:00+02:00", false),  // WM: a local operand compares wall-clock times
        Row(noonLocal, "2021-06-14T11:00:00+02:00", true),  // WM
        Row(noonLocal, "2021-06-14T11:00:00", true),  // WM
        Row(noonLocal, "2021-06-14", true),  // WM
        Row(noonLocal, "2021-06-14T12:00:00", false),  // WM
        Row(DateTimeMatcher(.equalToDateTime, "2021-06-14T12:13:14.5Z"), "2021-06-14T12:13:14.500Z", true),  // WM
        Row(
            DateTimeMatcher(.equalToDateTime, "2021-06-01T00:00:00Z", truncateActual: .firstDayOfMonth),
            "2021-06-14T12:13:14Z", true),  // WM
        Row(
            DateTimeMatcher(.equalToDateTime, "2021-06-01T00:00:00Z", truncateActual: .firstDayOfMonth),
            "2021-07-01T00:00:00Z", false),  // WM
        Row(DateTimeMatcher(.after, "2021-06-14T12:00:00Z"), "2021-06-14T12:00:01Z", true),
        Row(DateTimeMatcher(.after, "now -1 days"), "2020-01-01T00:00:00Z", false),  // WM
        Row(DateTimeMatcher(.after, "now -1 days"), "2999-01-01T00:00:00Z", true),
        Row(DateTimeMatcher(.before, "now", truncateExpected: .firstDayOfMonth), "2020-01-01T00:00:00Z", true),  // WM
        Row(DateTimeMatcher(.before, "now +3 days"), "2999-01-01T00:00:00Z", false),
        Row(DateTimeMatcher(.after, "now", expectedOffset: DateTimeOffset(-1, .days)), "2020-01-01T00:00:00Z", false)
    ]

    @Test("Date-times against literal and now operands", arguments: rows)
    func dateTimes(_ row: Row) {
        #expect(StringMatcher.dateTime(row.matcher).matches(row.value) == row.expected)
        let distance = CompiledStringMatcher(.dateTime(row.matcher)).distance(MatchSubject(row.value))
        #expect((distance == 0) == row.expected)
    }

    @Test("now is the time of the request, truncated then shifted (WM: the current time is after now -1 days)")
    func now() {
        let later = CompiledDateTimeMatcher(DateTimeMatcher(.after, "now -1 days"))
        let now = DateTimeValue(year: 2021, month: 6, day: 14, seconds: 3600, nanos: 0, offset: 0)
        let date = DateTimeValue(year: 2021, month: 6, day: 13, seconds: 7200, nanos: 0, offset: 0)
        #expect(later.expected(now: .init(timeIntervalSince1970: Double(now.instantSeconds))) != nil)
        let month = CompiledDateTimeMatcher(
            DateTimeMatcher(.before, "now +1 months", truncateExpected: .lastDayOfMonth))
        let expected = month.expected(now: .init(timeIntervalSince1970: Double(date.instantSeconds)))
        // 13 June → last day of June (30 June 00:00) → plus a month: 30 July.
        #expect(expected?.isoText == "2021-07-30T00:00:00Z")
        let clamped = DateTimeValue(year: 2021, month: 1, day: 31, seconds: 0, nanos: 0, offset: 0)
        #expect(clamped.shifted(by: DateTimeOffset(1, .months)).isoText == "2021-02-28T00:00:00Z")
        #expect(date.truncated(.firstDayOfNextYear).isoText == "2022-01-01T00:00:00Z")
        #expect(date.truncated(.firstMinuteOfHour).isoText == "2021-06-13T02:00:00Z")
    }

    @Test("Decodes operands and modifiers; encodes them back")
    func decodes() throws {
        let json = try JSONParser.parse(
            #"{"request": {"headers": {"A": {"before": "now +3 days", "truncateExpected": "first hour of day"}, "B": {"after": "now", "expectedOffset": -1, "expectedOffsetUnit": "days", "truncateActual": "FIRST_DAY_OF_MONTH"}, "C": {"equalToDateTime": "2021-06-14"}}}, "response": {}}"#
        )
        let request = try #require(try MappingDecoder().decodeDocument(json, file: nil).mappings.first?.request)
        #expect(
            request.headers.map(\.matcher) == [
                .single(.dateTime(DateTimeMatcher(.before, "now +3 days", truncateExpected: .firstHourOfDay))),
                .single(
                    .dateTime(
                        DateTimeMatcher(
                            .after, "now", expectedOffset: DateTimeOffset(-1, .days), truncateActual: .firstDayOfMonth))
                ),
                .single(.dateTime(DateTimeMatcher(.equalToDateTime, "2021-06-14")))
            ])
        #expect(
            request.json["headers"]?.serialized()
                == #"{"A":{"before":"now +3 days","truncateExpected":"first hour of day"},"B":{"after":"now","expectedOffset":-1,"expectedOffsetUnit":"days","truncateActual":"first day of month"},"C":{"equalToDateTime":"2021-06-14"}}"#
        )
        #expect(request.unsupportedMatchers.isEmpty)
    }

    static let errors: [(String, String)] = [
        // WM: 422 "No enum constant …DateTimeUnit.DAYSX"
        (#"{"before": "now +3 daysx"}"#, #"request.headers.X.before: expected "now", "now +3 days" or "-1 hours""#),
        // WM: 422 "No enum constant …DateTimeUnit.DAY"
        (#"{"after": "now +1 day"}"#, #"request.headers.X.after: expected "now", "now +3 days" or "-1 hours""#),
        (#"{"before": "garbage"}"#, #"request.headers.X.before: expected an ISO-8601 date-time such as"#),
        (#"{"before": 5}"#, #"request.headers.X.before: expected a date-time string such as"#),
        (#"{"before": "now", "truncateActual": "first week"}"#, #"request.headers.X.truncateActual: expected one of"#),
        (
            #"{"before": "now", "expectedOffset": 1, "expectedOffsetUnit": "weeks"}"#,
            #"request.headers.X.expectedOffsetUnit: expected one of seconds, minutes"#
        )
    ]

    @Test("Malformed date-time matchers fail to load, naming the field", arguments: errors)
    func malformed(_ row: (String, String)) {
        let document = #"{"request": {"headers": {"X": "# + row.0 + "}}, \"response\": {}}"
        do {
            _ = try MappingDecoder().decodeDocument(try JSONParser.parse(document), file: nil)
            Issue.record("decoded \(row.0)")
        } catch let error as StubsLoadError {
            #expect(error.description.hasPrefix(row.1), "\(error.description)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test(
        "An actualFormat with a letter stubserver does not read is a load error, or with lenientMatchers a stub that never matches"
    )
    func unsupported() throws {
        for matcher in [
            #"{"before": "now", "actualFormat": "QQQ yyyy"}"#,
            #"{"before": "now", "actualFormat": "yyyy-'W'ww"}"#
        ] {
            let json = try JSONParser.parse(#"{"request": {"headers": {"X": "# + matcher + "}}, \"response\": {}}")
            #expect(throws: StubsLoadError.self, "without lenientMatchers it is a load error") {
                try MappingDecoder().decodeDocument(json, file: nil)
            }
            let lenient = MappingDecoder(options: StubsLoadOptions(lenientMatchers: true))
            let request = try #require(try lenient.decodeDocument(json, file: nil).mappings.first?.request)
            #expect(request.unsupportedMatchers.count == 1, "\(matcher)")
            #expect(
                !CompiledRequestPattern(request).matches(
                    HTTPRequest(method: .get, target: "/", headers: ["X": "2000-01-01T00:00:00Z"])))
        }
    }

    @Test("Near misses say how the date-time compares")
    func explains() {
        let matcher = CompiledStringMatcher(.dateTime(Self.noonZ))
        #expect(
            matcher.explain(MatchSubject(body: Array("2021-06-14T14:00:00+02:00".utf8))) == [
                "2021-06-14T14:00:00+02:00 is not before 2021-06-14T12:00:00Z"
            ])
        #expect(matcher.explain(MatchSubject(body: Array("soon".utf8))) == [#""soon" is not a date-time"#])
        #expect(Self.noonZ.description == #"before "2021-06-14T12:00:00Z""#)
    }
}
