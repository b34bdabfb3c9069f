import StubHTTP
import Testing

@testable import StubKit
@testable import StubTemplating

@Suite("Response templates: now and randomValue")
struct TemplateTimeAndRandomTests {
    /// 2026-12-01T00:07:45.866Z, a Tuesday: the instant of the WireMock 2.35.1 run the rows come from.
    static let instant: Int64 = 1_796_083_665_866
    static let request = HTTPRequest(method: .get, target: "/")

    static let rows: [(String, String)] = [
        ("{{now}}", "2026-12-01T00:07:45Z"),  // WM (shape)
        (
            "{{now format='yyyy'}}|{{now timezone='UTC' format='z'}}|{{now format='epoch'}}|{{now format='unix'}}",
            "2026|UTC|1796083665866|1796083665"
        ),  // WM
        (
            "{{now offset='1 years' format='yyyy'}}|{{now offset='2 months' format='MM'}}|{{now offset='-30 seconds' format='ss'}}|{{now offset='5 minutes' format='mm'}}|{{now format='yyyy-MM-dd HH:mm:ss.SSSZ'}}|{{now format='h a'}}|{{now format=\"EEEE MMMM\"}}|{{now timezone='America/New_York' format='HH XXX'}}|{{now format='D'}}",
            "2027|02|15|12|2026-12-01 00:07:45.866+0000|12 AM|Tuesday December|19 -05:00|335"
        ),  // WM
        (
            "{{now offset='3 days' format='yyyy-MM-dd'}}|{{now offset='-2 hours' format=\"yyyy-MM-dd'T'HH\"}}|{{now timezone='Australia/Sydney' format='Z'}}|{{now format='EEE, d MMM yyyy HH:mm:ss z'}}",
            "2026-12-04|2026-11-30T22|+1100|Tue, 1 Dec 2026 00:07:45 UTC"
        ),  // WM
        // WM rejects the singular 'day'
        ("{{now offset='3 day' format='dd'}}|{{now offset='1 weeks' format='dd'}}", "04|08"),
        (
            "{{now format='yy/M/d H:m:s k K'}}|{{now format=\"''yyyy''\"}}|{{now format='G u'}}",
            "26/12/1 0:7:45 24 0|&#x27;2026&#x27;|AD 2"
        ),
        ("{{now timezone='Asia/Kolkata' format=\"HH:mm X XX\"}}", "05:37 +05 +0530"),
        ("{{now offset='-1 months' format='yyyy-MM-dd'}}", "2026-11-01")
    ]

    @Test("now formats like Java's SimpleDateFormat, with offsets and time zones", arguments: rows)
    func now(_ row: (String, String)) throws {
        let rendered = try Template(row.0).render(for: Self.request, now: Self.instant)
        #expect(rendered == row.1)
    }

    @Test("Month offsets clamp the day; dates before 1970 and leap days work")
    func calendarEdges() throws {
        // 2024-01-31T12:00:00Z + 1 month → 2024-02-29
        let januaryEnd: Int64 = 1_706_702_400_000
        #expect(
            try Template("{{now offset='1 months' format='yyyy-MM-dd HH'}}").render(for: Self.request, now: januaryEnd)
                == "2024-02-29 12")
        #expect(
            try Template("{{now offset='-20000 days' format='yyyy-MM-dd EEE'}}").render(for: Self.request, now: 0)
                == "1915-03-31 Wed")
    }

    @Test("randomValue: length, alphabet and case per type; UUIDs are version 4")
    func randomValues() throws {
        let template = try Template(
            "{{randomValue length=40 type='NUMERIC'}}|{{randomValue length=40 type='ALPHABETIC'}}|{{randomValue length=40 type='HEXADECIMAL' uppercase=true}}|{{randomValue length=40}}|{{randomValue type='UUID'}}|{{randomValue}}|{{randomValue length=0}}|"
        )
        for seed in 0..<20 as Range<UInt64> {
            let parts = template.render(for: Self.request, now: 0, seed: seed).split(
                separator: "|", omittingEmptySubsequences: false)
            #expect(parts.count == 8)
            #expect(parts[0].count == 40 && parts[0].allSatisfy(\.isNumber))
            #expect(parts[1].count == 40 && parts[1].allSatisfy { $0.isLowercase && $0.isLetter })
            #expect(parts[2].count == 40 && parts[2].allSatisfy { "0123456789ABCDEF".contains($0) })
            #expect(parts[3].count == 40 && parts[3].allSatisfy { ($0.isLetter && $0.isLowercase) || $0.isNumber })
            let uuid = parts[4].split(separator: "-").map(\.count)
            #expect(uuid == [8, 4, 4, 4, 12] && parts[4].dropFirst(14).first == "4")
            #expect(parts[5].count == 36)  // WM: the default length is 36
            #expect(parts[6].isEmpty)
            let symbols = try Template("{{{randomValue length=7 type='ALPHANUMERIC_AND_SYMBOLS'}}}").render(
                for: Self.request, now: 0, seed: seed)
            #expect(symbols.count == 7 && symbols.unicodeScalars.allSatisfy { (33...126).contains($0.value) })
        }
        let a = template.render(for: Self.request, now: 0, seed: 1),
            b = template.render(for: Self.request, now: 0, seed: 2)
        #expect(a != b)
    }
}
