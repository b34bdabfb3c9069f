import StubHTTP
import Testing

@testable import StubKit
@testable import StubTemplating

/// Expected outputs are WireMock 2.35.1's (rendered by the jar with `response-template`).
@Suite("Response templates: date helpers")
struct TemplateDateHelperTests {
    static let d = "(parseDate '2024-03-05T10:15:30Z')"

    static let rows: [TemplateRow] = [
        TemplateRow(
            "{{parseDate '2024-03-05T10:15:30Z'}}|{{parseDate '2024-03-05'}}|{{parseDate '05/03/2024' format='dd/MM/yyyy'}}|{{parseDate 'nonsense'}}|{{parseDate '2024-03-05T10:15:30+02:00'}}",
            "2024-03-05T10:15:30Z||2024-03-05T00:00:00Z||2024-03-05T10:15:30+02:00"),
        TemplateRow(
            "{{parseDate '2024-03-05T10:15:30.250Z'}}|{{parseDate '2024-03-05T10:15Z'}}|{{dateFormat (parseDate '2024-03-05T10:15:30+02:00') format='HH:mm'}}|{{parseDate '2024-03-05 10:15' format='yyyy-MM-dd HH:mm'}}|{{dateFormat (parseDate '2024-03-05T23:15:30Z') format='yyyy-MM-dd HH:mm' tz='GMT+02:00'}}",
            "2024-03-05T10:15:30Z|2024-03-05T10:15:00Z|08:15|2024-03-05T10:15:00Z|2024-03-06 01:15"),
        TemplateRow(
            "{{parseDate '1709633730000' format='epoch'}}|{{parseDate '1709633730' format='unix'}}|{{#if (parseDate 'x')}}y{{else}}n{{/if}}|{{parseDate '20240305' format='yyyyMMdd'}}",
            "2024-03-05T10:15:30Z|2024-03-05T10:15:30Z|n|2024-03-05T00:00:00Z"),
        TemplateRow(
            "{{dateFormat \(d) format='yyyy/MM/dd HH:mm'}}|{{dateFormat \(d) 'yyyy'}}|{{date \(d) format='dd MMM yyyy'}}|{{date \(d) offset='1 days'}}|{{date \(d) format='epoch'}}",
            "2024/03/05 10:15|2024|05 Mar 2024|2024-03-06T10:15:30Z|1709633730000"),
        TemplateRow(
            "{{truncateDate \(d) 'first day of month'}}|{{truncateDate \(d) 'first hour of day'}}|{{truncateDate \(d) 'first day of year'}}|{{truncateDate \(d) 'last day of month'}}",
            "2024-03-01T00:00:00Z|2024-03-05T00:00:00Z|2024-01-01T00:00:00Z|2024-03-31T00:00:00Z"),
        TemplateRow(
            "{{truncateDate \(d) 'first minute of hour'}}|{{truncateDate \(d) 'first day of next month'}}|{{truncateDate \(d) 'first day of next year'}}|{{truncateDate \(d) 'last day of year'}}",
            "2024-03-05T10:00:00Z|2024-04-01T00:00:00Z|2025-01-01T00:00:00Z|2024-12-31T00:00:00Z"),
        TemplateRow(
            "{{truncateDate (parseDate '2024-12-15T10:15:30Z') 'first day of next month'}}|{{truncateDate (parseDate '2024-02-15T10:15:30+05:00') 'last day of month'}}",
            "2025-01-01T00:00:00Z|2024-02-29T00:00:00+05:00")
    ]

    @Test("Date helpers answer as in WireMock", arguments: rows)
    func renders(_ row: TemplateRow) throws {
        let rendered = try row.render()
        #expect(rendered == row.expected)
    }

    @Test("truncateDate over now, and an unknown truncation fails the response naming it")
    func truncation() throws {
        let request = HTTPRequest(method: .get, target: "/")
        // 2026-12-04T14:20:33Z
        let now: Int64 = 1_796_394_033_000
        #expect(
            try Template("{{truncateDate (now) 'first day of year'}}").render(for: request, now: now)
                == "2026-01-01T00:00:00Z")
        #expect(
            try renderingFailure("{{truncateDate \(Self.d) 'bogus'}}")
                == "truncateDate: No enum constant DateTimeTruncation.BOGUS")
    }
}
