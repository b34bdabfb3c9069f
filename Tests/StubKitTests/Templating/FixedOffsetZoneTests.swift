import Testing

@testable import StubKit
@testable import StubTemplating

/// The zones `now timezone=` loads without a time-zone database (the Slim build has none).
@Suite("Fixed-offset time zones")
struct FixedOffsetZoneTests {
    @Test(
        "UTC, GMT and Java's custom GMT±hh:mm ids give their offset",
        arguments: [
            ("UTC", 0), ("utc", 0), ("GMT", 0), ("Z", 0), ("Etc/UTC", 0), ("GMT+2", 7200), ("GMT+02", 7200),
            ("GMT-05:30", -19800), ("UTC+0530", 19800), ("GMT+5:45", 20700), ("UTC-12", -43200)
        ] as [(String, Int)])
    func offsets(_ id: String, _ seconds: Int) {
        #expect(FixedOffsetZone.offsetSeconds(id) == seconds)
        #expect(FixedOffsetZone.named(id)?.secondsFromGMT() == seconds)
    }

    @Test(
        "Anything else is not a fixed offset",
        arguments: ["Europe/Paris", "GMT+", "GMT+24", "GMT+02:60", "GMT+123", "UTC2", "PST", ""])
    func notOffsets(_ id: String) {
        #expect(FixedOffsetZone.offsetSeconds(id) == nil)
    }
}
